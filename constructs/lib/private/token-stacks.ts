/**
 * cdktf records a full stack trace for every token it creates (intrinsic tokens, references), and under source maps
 * (tsx, ts-node, --enable-source-maps) formatting them dominates a large fleet's construct time, since every node's
 * chain creates several tokens. The traces only serve cdktf's message about a token that fails to resolve, which the
 * chain's own references (ids and attributes of resources it just created) never do.
 */

/** Runs `fn` with stack traces formatted as empty text; synchronous, so nothing else observes it. */
export function withoutTokenStacks<T>(fn: () => T): T {
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = () => "";
  try {
    return fn();
  } finally {
    Error.prepareStackTrace = previous;
  }
}
