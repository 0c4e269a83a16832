/**
 * Dell iDRAC's configuration jobs for BIOS settings (world/bios-shapes.ts), in the two views iDRAC9 offers:
 * `Managers/iDRAC.Embedded.1/Jobs/JID_…` (#DellJob: JobState Scheduled → Completed, MessageId JCP001 → PR19, as the
 * jobs Dell's Ansible modules and libredfish's tests show) — the resource a settings PATCH's Location names — and the
 * standard JobService (`/redfish/v1/JobService/Jobs/JID_…`, #Job with `Oem.Dell.JobType`), which clients such as
 * bmclib walk to find a pending job. DELETE of a Scheduled job in either view removes it and discards the pending
 * values (as Dell documents: values must be set again); a finished job answers 400 on DELETE. Only Dell nodes serve them.
 */
import { type BiosJob, deleteJob } from "../world/bios-shapes.js";
import type { LabNode } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { bmcNode, type Ctx, collection, iso, link, ok, type Reply, type Route } from "./router.js";

const JOB_SERVICE = "/redfish/v1/JobService";

/** The Dell node of the request (404 on other vendors, or when `mgr` is not its manager). */
function dellNode(ctx: Ctx): LabNode {
  const n = bmcNode(ctx);
  if (n.spec.vendor !== "dell" || (ctx.params.mgr !== undefined && ctx.params.mgr !== n.ids.manager))
    throw new RedfishError(404, "ResourceNotFound", ["Jobs", ctx.path]);
  return n;
}

function jobOf(ctx: Ctx): { n: LabNode; job: BiosJob } {
  const n = dellNode(ctx);
  const job = n.bios.jobs.find((j) => j.id === ctx.params.jid);
  if (!job) throw new RedfishError(404, "ResourceNotFound", ["Job", ctx.params.jid]);
  return { n, job };
}

const dellJobsPath = (n: LabNode) => `/redfish/v1/Managers/${n.ids.manager}/Jobs`;
const time = (ms: number | undefined) => (ms === undefined ? null : iso(ms).replace(/\+00:00$/, ""));

/** iDRAC's own view of a job (#DellJob). */
function dellJob(n: LabNode, j: BiosJob): Record<string, unknown> {
  return {
    "@odata.type": "#DellJob.v1_5_0.DellJob",
    "@odata.id": `${dellJobsPath(n)}/${j.id}`,
    Id: j.id,
    Name: "Configure: BIOS.Setup.1-1",
    Description: "Job Instance",
    JobType: "BIOSConfiguration",
    JobState: j.state,
    PercentComplete: j.state === "Scheduled" ? 0 : 100,
    Message: j.message.text,
    MessageId: j.message.id,
    MessageArgs: [],
    StartTime: time(j.createdAt),
    ActualRunningStartTime: time(j.startedAt),
    ActualRunningStopTime: time(j.completedAt),
    CompletionTime: time(j.completedAt),
    EndTime: "TIME_NA",
    TargetSettingsURI: null,
  };
}

/** The standard Job view (DSP8010 Job schema): Scheduled maps to Pending, Failed to Exception. */
function standardJob(j: BiosJob): Record<string, unknown> {
  const state = { Scheduled: "Pending", Completed: "Completed", Failed: "Exception" }[j.state];
  return {
    "@odata.type": "#Job.v1_2_4.Job",
    "@odata.id": `${JOB_SERVICE}/Jobs/${j.id}`,
    Id: j.id,
    Name: "Configure: BIOS.Setup.1-1",
    JobState: state,
    JobStatus: j.state === "Failed" ? "Critical" : "OK",
    PercentComplete: j.state === "Scheduled" ? 0 : 100,
    StartTime: iso(j.createdAt),
    ...(j.completedAt !== undefined ? { EndTime: iso(j.completedAt) } : {}),
    Messages: [{ MessageId: j.message.id, Message: j.message.text }],
    Oem: { Dell: { JobType: "BIOSConfiguration", ActualRunningStartTime: time(j.startedAt) } },
  };
}

function deleteHandler(ctx: Ctx): Reply {
  const { n, job } = jobOf(ctx);
  if (!deleteJob(n.bios, job.id)) throw new RedfishError(400, "ResourceInUse", []);
  return { status: 200, body: {} };
}

/** Routes of Dell's config jobs and the JobService. */
export const biosJobRoutes: Route[] = [
  {
    pattern: "/redfish/v1/Managers/:mgr/Jobs",
    methods: {
      GET: (ctx) => {
        const n = dellNode(ctx);
        const ids = n.bios.jobs.map((j) => `${dellJobsPath(n)}/${j.id}`);
        return ok(collection("DellJobCollection", "JobQueue", dellJobsPath(n), ids));
      },
    },
  },
  {
    pattern: "/redfish/v1/Managers/:mgr/Jobs/:jid",
    methods: {
      GET: (ctx) => {
        const { n, job } = jobOf(ctx);
        return ok(dellJob(n, job));
      },
      DELETE: deleteHandler,
    },
  },
  {
    pattern: JOB_SERVICE,
    methods: {
      GET: (ctx) => {
        dellNode(ctx);
        return ok({
          "@odata.type": "#JobService.v1_0_5.JobService",
          "@odata.id": JOB_SERVICE,
          Id: "JobService",
          Name: "Job Service",
          ServiceEnabled: true,
          Jobs: link(`${JOB_SERVICE}/Jobs`),
        });
      },
    },
  },
  {
    pattern: `${JOB_SERVICE}/Jobs`,
    methods: {
      GET: (ctx) => {
        const n = dellNode(ctx);
        const ids = n.bios.jobs.map((j) => `${JOB_SERVICE}/Jobs/${j.id}`);
        return ok(collection("JobCollection", "Job Collection", `${JOB_SERVICE}/Jobs`, ids));
      },
    },
  },
  {
    pattern: `${JOB_SERVICE}/Jobs/:jid`,
    methods: {
      GET: (ctx) => ok(standardJob(jobOf(ctx).job)),
      DELETE: deleteHandler,
    },
  },
];
