// Original file: reports/v1/reports_service.proto


export interface ExchangeItem {
  'fields'?: ({[key: string]: string});
}

export interface ExchangeItem__Output {
  'fields': ({[key: string]: string});
}
