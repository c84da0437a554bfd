package io.timelinearchive.archive.restore;

import io.timelinearchive.timeline.TimelineInstant;
import java.util.List;

/**
 * What one unarchive did (or, in a dry run, would do).
 *
 * @param restored instant state files written back to the active timeline, in the order written
 * @param alreadyActive state files in the range that the active timeline holds already, with the
 *     archived bytes; left as they are
 * @param warnings things the user should know (instants without a completed state skipped, …)
 */
public record RestoreResult(
    boolean dryRun,
    List<TimelineInstant> restored,
    List<TimelineInstant> alreadyActive,
    List<String> warnings) {

  public RestoreResult {
    restored = List.copyOf(restored);
    alreadyActive = List.copyOf(alreadyActive);
    warnings = List.copyOf(warnings);
  }
}
