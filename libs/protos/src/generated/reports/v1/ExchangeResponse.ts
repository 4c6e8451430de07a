// Original file: reports/v1/reports_service.proto

import type { ExchangeItem as _reports_v1_ExchangeItem, ExchangeItem__Output as _reports_v1_ExchangeItem__Output } from '../../reports/v1/ExchangeItem.ts';

export interface ExchangeResponse {
  'items'?: (_reports_v1_ExchangeItem)[];
  'more'?: (boolean);
}

export interface ExchangeResponse__Output {
  'items': (_reports_v1_ExchangeItem__Output)[];
  'more': (boolean);
}
