/**
 * What deployments and images of one provider process know of each other without a dependency in the graph.
 *
 * Why no dependency: the engines order a dependency's update (or create) after the destroy of every resource whose
 * stored dependencies include it, transitively. With deployments depending on their rackform_image, an image version
 * bump would wait for every node's member to be destroyed (drained) while the disruption budget lets only a few
 * drain, and those few wait for the image: a deadlock whatever the parallelism. So the graph has no edge between
 * them, and these two waits keep the order the edge used to give:
 * - a deployment waits for the upload of its image when this process is putting it in place (day 1, or a new
 *   version), and a short while for an upload to begin when its image is not in the backend yet;
 * - an image's destroy waits, within its timeout, while machines run it and this process is tearing nodes down
 *   (a destroy of the whole rack); with no teardown under way it is refused at once, as before.
 */
export class ImageWork {
  private readonly uploads = new Map<string, Promise<unknown>>();
  private teardowns = 0;

  /** Records `work` as the upload of image `id` (`<backend>:<name>/<version>`) until it settles. */
  track<T>(id: string, work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.uploads.set(id, settled);
    void settled.then(() => {
      if (this.uploads.get(id) === settled) this.uploads.delete(id);
    });
    return work;
  }

  /** The upload of image `id` under way in this process, if any (resolves when it ends, however it ends). */
  upload(id: string): Promise<unknown> | undefined {
    return this.uploads.get(id);
  }

  /** A node's teardown (member drain or deployment release) started in this process. */
  tearingDown(): void {
    this.teardowns++;
  }

  /** Whether any node's teardown started in this process. */
  get teardownSeen(): boolean {
    return this.teardowns > 0;
  }
}
