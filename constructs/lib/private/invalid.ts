/** Where the library throws its props errors: one place, which also sets up their printing under `cdktf synth`. */
import { printValidationErrorsAtSynth, RackformValidationError, type ValidationProblem } from "../errors.js";

/** Throws the props problems of the construct at `constructPath` as one RackformValidationError, printed for synth. */
export function throwInvalid(constructPath: string, problems: readonly ValidationProblem[]): never {
  printValidationErrorsAtSynth();
  throw new RackformValidationError(constructPath, problems);
}
