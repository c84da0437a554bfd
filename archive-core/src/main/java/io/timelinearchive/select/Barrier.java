package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineFile;
import java.util.Optional;

/**
 * Why selection stopped where it did, for one group of instants.
 *
 * @param scope the group the barrier stopped
 * @param kind the rule that stopped it
 * @param instantTime the instant the rule is about (the savepoint, the pending instant, the
 *     metadata table's compaction, the first instant kept, ...), when there is one
 * @param message for people, e.g. {@code first savepoint at 20260101000000000}
 */
public record Barrier(Scope scope, Kind kind, Optional<String> instantTime, String message) {

  /** The groups selection handles separately, as Hudi does. */
  public enum Scope {
    /**
     * Completed commit, deltacommit and replacecommit instants (compactions complete as commit).
     */
    COMMITS,
    CLEAN,
    ROLLBACK
  }

  public enum Kind {
    /** No completed instant of the scope. */
    NOTHING_TO_ARCHIVE,
    /** No more than {@code hoodie.keep.max.commits} completed instants. */
    BELOW_MAX,
    /** The first completed savepoint. */
    SAVEPOINT,
    /** The oldest pending instant of the write timeline. */
    PENDING_INSTANT,
    /** Merge-on-read tables keep the delta commits the next compaction is scheduled from. */
    COMPACTION_RETENTION,
    /** Replacecommits are kept until the cleaner has removed the files they replaced. */
    CLUSTERING_RETENTION,
    /** {@code hoodie.keep.min.commits} instants are kept. */
    MIN_COMMITS,
    /** Nothing at or after the metadata table's latest compaction; nothing while it has none. */
    METADATA_TABLE,
    /**
     * Archiving a metadata table itself: nothing at or after its data table's earliest commit or
     * pending instant.
     */
    DATA_TABLE,
    /**
     * Hudi 1.x: clean and rollback instants are archived only when requested before the newest
     * commit archived in the same run, and none when no commit is.
     */
    NEWEST_COMMIT,
    /** {@code archive.retain.min-age}. */
    MIN_AGE,
    /** {@code archive.max-instants-per-run}. */
    RUN_CAP,
    /**
     * An instant file that cannot be read or converted, with {@code
     * hoodie.fail.on.timeline.archiving=false}: the run archives only what is older (set by the
     * archiver, which reads the files; selection itself never reads them).
     */
    UNREADABLE_FILE
  }

  public Barrier {
    requireNonNull(scope, "scope is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(instantTime, "instantTime is null");
    requireNonNull(message, "message is null");
  }

  /** What stops a run before the instant of {@code file}, which could not be read. */
  public static Barrier unreadableFile(TimelineFile file) {
    return new Barrier(
        Scope.COMMITS,
        Kind.UNREADABLE_FILE,
        Optional.of(file.instant().time()),
        "unreadable instant file " + file.file().location());
  }

  @Override
  public String toString() {
    return scope + ": " + message;
  }
}
