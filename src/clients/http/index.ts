/** The shared HTTP core of rackform's clients. */
export {
  BMC_CONCURRENCY,
  CONTROLLER_CONCURRENCY,
  HttpCore,
  type HttpCoreOptions,
  type HttpRequest,
  type HttpResponse,
  type HttpStream,
} from "./core.js";
export {
  isPassingFailure,
  nextPollMs,
  PollFailures,
  type PollPace,
  type PollSpec,
} from "./poll.js";
export { backoffMs, IDEMPOTENT_METHODS, parseRetryAfter, RETRYABLE_STATUSES, type RetryPolicy } from "./retry.js";
export { mapLimit, Semaphore } from "./semaphore.js";
export { SharedList, type SharedListOptions } from "./shared-list.js";
export type { TlsOptions } from "./tls.js";
