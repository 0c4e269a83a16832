/** The error a call rejects with, for tests that assert on it. */

/** The rejection of `p`, or a failure when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection, but the call succeeded");
}
