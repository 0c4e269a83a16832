/** Redfish error responses: the Base message registry entries the lab uses, and the error body shape (DSP0266 §9.6). */

/** Base registry version the lab's MessageIds name. */
export const BASE_REGISTRY = "Base.1.18";

const MESSAGES: Record<string, { text: string; resolution: string }> = {
  GeneralError: { text: "A general error has occurred. %1", resolution: "None." },
  ResourceNotFound: {
    text: "The requested resource of type %1 named '%2' was not found.",
    resolution: "Provide a valid resource identifier and resubmit the request.",
  },
  MalformedJSON: {
    text: "The request body submitted was malformed JSON and could not be parsed by the receiving service.",
    resolution: "Ensure that the request body is valid JSON and resubmit the request.",
  },
  PropertyValueNotInList: {
    text: "The value '%1' for the property %2 is not in the list of acceptable values.",
    resolution:
      "Choose a value from the enumeration list that the implementation can support and resubmit the request.",
  },
  PropertyValueTypeError: {
    text: "The value '%1' for the property %2 is not a type that the property can accept.",
    resolution: "Correct the value for the property in the request body and resubmit the request.",
  },
  PropertyUnknown: {
    text: "The property %1 is not in the list of valid properties for the resource.",
    resolution: "Remove the unknown property from the request body and resubmit the request.",
  },
  PropertyNotWritable: {
    text: "The property %1 is a read-only property and cannot be assigned a value.",
    resolution: "Remove the property from the request body and resubmit the request.",
  },
  PropertyMissing: {
    text: "The property %1 is a required property and must be included in the request.",
    resolution: "Ensure that the property is in the request body and has a valid value and resubmit the request.",
  },
  ActionParameterMissing: {
    text: "The action %1 requires the parameter %2 to be present in the request body.",
    resolution: "Supply the action with the required parameter in the request body when the request is resubmitted.",
  },
  ActionParameterValueNotInList: {
    text: "The value '%1' for the parameter %2 in the action %3 is not in the list of acceptable values.",
    resolution: "Choose a value from the enumeration list and resubmit the request if the operation failed.",
  },
  ActionParameterValueFormatError: {
    text: "The value '%1' for the parameter %2 in the action %3 is of a different format than the parameter can accept.",
    resolution:
      "Correct the value for the parameter in the request body and resubmit the request if the operation failed.",
  },
  ActionParameterValueTypeError: {
    text: "The value '%1' for the parameter %2 in the action %3 is of a different type than the parameter can accept.",
    resolution:
      "Correct the value for the parameter in the request body and resubmit the request if the operation failed.",
  },
  PropertyValueFormatError: {
    text: "The value '%1' for the property %2 is of a different format than the property can accept.",
    resolution:
      "Correct the value for the property in the request body and resubmit the request if the operation failed.",
  },
  ResetRequired: {
    text: "In order to complete the operation, a component reset is required with the Reset action URI '%1' and ResetType '%2'.",
    resolution: "Perform the required Reset action on the specified component.",
  },
  ActionNotSupported: {
    text: "The action %1 is not supported by the resource.",
    resolution: "The action supplied cannot be resubmitted to the implementation.",
  },
  OperationNotAllowed: {
    text: "The HTTP method is not allowed on this resource.",
    resolution: "None.",
  },
  PreconditionFailed: {
    text: "The ETag supplied did not match the current ETag of the resource.",
    resolution: "Try the operation again using the appropriate ETag.",
  },
  NoValidSession: {
    text: "There is no valid session established with the implementation.",
    resolution: "Establish a session before attempting any operations.",
  },
  ResourceInUse: {
    text: "The change to the requested resource failed because the resource is in use or in transition.",
    resolution: "Remove the condition and resubmit the request if the operation failed.",
  },
  ServiceTemporarilyUnavailable: {
    text: "The service is temporarily unavailable.  Retry in %1 seconds.",
    resolution: "Wait for the indicated retry duration and retry the operation.",
  },
  QueryParameterValueFormatError: {
    text: "The value '%1' for the parameter %2 is of a different format than the parameter can accept.",
    resolution: "Correct the value for the query parameter in the request and resubmit the request.",
  },
  QueryParameterOutOfRange: {
    text: "The value '%1' for the query parameter %2 is out of range %3.",
    resolution: "Reduce the value for the query parameter to a value that is within range.",
  },
  QueryParameterUnsupported: {
    text: "The query parameter '%1' is not supported.",
    resolution: "Correct or remove the query parameter and resubmit the request.",
  },
  SessionLimitExceeded: {
    text: "The session establishment failed due to the number of simultaneous sessions exceeding the limit of the implementation.",
    resolution: "Reduce the number of other sessions before trying to establish the session or increase the limit.",
  },
};

/** A registry message key the lab can answer with. */
export type MessageKey = keyof typeof MESSAGES & string;

/** A vendor's own registry message, put first in @Message.ExtendedInfo (quirk `vendor-message-ids`). */
export interface VendorMessage {
  readonly id: string;
  readonly message: string;
  readonly resolution: string;
}

/** Dell iDRAC's "job already running" message (IDRAC registry SUP0108). */
export const IDRAC_JOB_RUNNING: VendorMessage = {
  id: "IDRAC.2.8.SUP0108",
  message: "Unable to complete the operation because a firmware update job is already running or pending.",
  resolution: "Wait for the running job to complete, or delete the pending job, and retry the operation.",
};

/** Thrown by resource handlers; the server turns it into a Redfish error body with `status`. */
export class RedfishError extends Error {
  override readonly name = "RedfishError";
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly args: readonly string[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
    readonly vendor?: VendorMessage,
  ) {
    super(vendor?.message ?? render(key, args));
  }
}

function render(key: MessageKey, args: readonly string[]): string {
  const m = MESSAGES[key] ?? MESSAGES.GeneralError;
  return m.text.replace(/%(\d)/g, (_, i: string) => args[Number(i) - 1] ?? "");
}

/** The JSON error body for a message; a vendor message comes first, as iDRAC and iLO put theirs. */
export function errorBody(key: MessageKey, args: readonly string[] = [], vendor?: VendorMessage): unknown {
  const id = `${BASE_REGISTRY}.${key}`;
  const message = render(key, args);
  const own = vendor
    ? [
        {
          "@odata.type": "#Message.v1_3_0.Message",
          MessageId: vendor.id,
          Message: vendor.message,
          MessageArgs: [],
          MessageSeverity: "Warning",
          Severity: "Warning",
          Resolution: vendor.resolution,
        },
      ]
    : [];
  return {
    error: {
      code: vendor ? `${BASE_REGISTRY}.GeneralError` : id,
      message: vendor ? vendor.message : message,
      "@Message.ExtendedInfo": [
        ...own,
        {
          "@odata.type": "#Message.v1_3_0.Message",
          MessageId: id,
          Message: message,
          MessageArgs: [...args],
          MessageSeverity: "Critical",
          Severity: "Critical",
          Resolution: MESSAGES[key]?.resolution ?? "None.",
        },
      ],
    },
  };
}

/** 404 for a path. */
export const notFound = (path: string) => new RedfishError(404, "ResourceNotFound", ["Resource", path]);
