/** KubernetesError: an API-server failure with a stable code; the server's metav1.Status rides in `status`. */
import { type ClientErrorContext, type ErrorCode, RackformClientError } from "../errors.js";

/** The fields of a metav1.Status error body rackform reads. */
export interface KubernetesStatus {
  readonly reason?: string;
  readonly message?: string;
  readonly code?: number;
  readonly causes?: readonly { readonly reason?: string; readonly message?: string; readonly field?: string }[];
}

/** A Kubernetes failure; `code` says which (the Kubernetes entries of ERROR_CODES). */
export class KubernetesError extends RackformClientError {
  readonly k8sStatus?: KubernetesStatus;
  readonly details: Readonly<Record<string, unknown>>;
  constructor(
    code: ErrorCode,
    message: string,
    ctx: ClientErrorContext = {},
    k8sStatus?: KubernetesStatus,
    details: Record<string, unknown> = {},
  ) {
    super(code, message, ctx);
    this.name = "KubernetesError";
    this.k8sStatus = k8sStatus;
    this.details = details;
  }
}
