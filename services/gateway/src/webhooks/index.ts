// What the admin CLI uses to manage webhook subscriptions as the API does.
export {
  createSubscription,
  deleteSubscription,
  disableSubscription,
  enableSubscription,
  getSubscription,
  listDeadLetters,
  listSubscriptions,
  requestReplay,
  rotateSecret,
} from './subscriptions-repo.ts';
export { parseSubscription } from './validation.ts';
