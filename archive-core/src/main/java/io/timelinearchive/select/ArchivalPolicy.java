package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What may be archived: Hudi 0.15's selection settings under Hudi's own keys and defaults, plus two
 * rules of ours ({@code archive.retain.min-age}, {@code archive.max-instants-per-run}). How the
 * archive is written is the archiver's business ({@code ArchiverSettings}).
 *
 * @param minCommits {@link #MIN_COMMITS}: completed commits (and instants of each of clean and
 *     rollback) kept when trimming; Hudi may widen it, see {@link ArchivalPlan#minCommits()}
 * @param maxCommits {@link #MAX_COMMITS}: trimming starts above this many
 * @param archiveBeyondSavepoint {@link #ARCHIVE_BEYOND_SAVEPOINT}: archive commits after the first
 *     savepoint, skipping only the savepointed ones
 * @param cleanerPolicy {@link #CLEANER_POLICY}: decides how Hudi widens min/max
 * @param cleanerCommitsRetained {@link #CLEANER_COMMITS_RETAINED}
 * @param cleanerHoursRetained {@link #CLEANER_HOURS_RETAINED}
 * @param compactionMaxDeltaCommits {@link #COMPACTION_MAX_DELTA_COMMITS}: merge-on-read tables keep
 *     this many delta commits since the last compaction
 * @param compactionTrigger {@link #COMPACTION_TRIGGER}
 * @param retainMinAge {@link #RETAIN_MIN_AGE}: instants younger than this are never archived
 * @param maxInstantsPerRun {@link #MAX_INSTANTS_PER_RUN}: at most this many instants per run
 */
public record ArchivalPolicy(
    int minCommits,
    int maxCommits,
    boolean archiveBeyondSavepoint,
    CleanerPolicy cleanerPolicy,
    int cleanerCommitsRetained,
    int cleanerHoursRetained,
    int compactionMaxDeltaCommits,
    CompactionTrigger compactionTrigger,
    Optional<Duration> retainMinAge,
    OptionalInt maxInstantsPerRun) {

  public static final Setting<Integer> MIN_COMMITS =
      Setting.integer("hoodie.keep.min.commits")
          .defaultValue(20)
          .atLeast(1)
          .doc("completed commits kept when archiving (Hudi may widen it for the cleaner)")
          .build();
  public static final Setting<Integer> MAX_COMMITS =
      Setting.integer("hoodie.keep.max.commits")
          .defaultValue(30)
          .doc("archive once more than this many completed commits are active, down to min")
          .build();
  public static final Setting<Boolean> ARCHIVE_BEYOND_SAVEPOINT =
      Setting.bool("hoodie.archive.beyond.savepoint")
          .defaultValue(false)
          .doc("skip savepointed commits instead of stopping at the first savepoint")
          .build();
  public static final Setting<CleanerPolicy> CLEANER_POLICY =
      Setting.oneOf("hoodie.cleaner.policy", CleanerPolicy.class)
          .alsoNamed("hoodie.clean.policy")
          .defaultValue(CleanerPolicy.KEEP_LATEST_COMMITS)
          .doc("with the two below, widens min/max as Hudi does so the cleaner keeps what it needs")
          .build();
  public static final Setting<Integer> CLEANER_COMMITS_RETAINED =
      Setting.integer("hoodie.cleaner.commits.retained")
          .alsoNamed("hoodie.clean.commits.retained")
          .defaultValue(10)
          .atLeast(0)
          .doc("commits the cleaner retains (KEEP_LATEST_COMMITS)")
          .build();
  public static final Setting<Integer> CLEANER_HOURS_RETAINED =
      Setting.integer("hoodie.cleaner.hours.retained")
          .alsoNamed("hoodie.clean.hours.retained")
          .defaultValue(24)
          .atLeast(0)
          .doc("hours the cleaner retains (KEEP_LATEST_BY_HOURS)")
          .build();
  public static final Setting<Integer> COMPACTION_MAX_DELTA_COMMITS =
      Setting.integer("hoodie.compact.inline.max.delta.commits")
          .defaultValue(5)
          .atLeast(1)
          .doc("merge-on-read tables keep the delta commits the next compaction needs")
          .build();
  public static final Setting<CompactionTrigger> COMPACTION_TRIGGER =
      Setting.oneOf("hoodie.compact.inline.trigger.strategy", CompactionTrigger.class)
          .defaultValue(CompactionTrigger.NUM_COMMITS)
          .doc("whether that count applies (NUM_COMMITS, NUM_AND_TIME)")
          .build();
  public static final Setting<Duration> RETAIN_MIN_AGE =
      Setting.duration("archive.retain.min-age")
          .documentedDefault("off")
          .doc("never archive instants younger than this, on top of the count rules")
          .build();
  public static final Setting<Integer> MAX_INSTANTS_PER_RUN =
      Setting.integer("archive.max-instants-per-run")
          .documentedDefault("off")
          .atLeast(1)
          .doc("archive at most this many instants per run, the oldest ones")
          .build();

  /** Every setting selection reads. */
  public static final List<Setting<?>> SETTINGS =
      List.of(
          MIN_COMMITS,
          MAX_COMMITS,
          ARCHIVE_BEYOND_SAVEPOINT,
          CLEANER_POLICY,
          CLEANER_COMMITS_RETAINED,
          CLEANER_HOURS_RETAINED,
          COMPACTION_MAX_DELTA_COMMITS,
          COMPACTION_TRIGGER,
          RETAIN_MIN_AGE,
          MAX_INSTANTS_PER_RUN);

  /** Hudi's {@code HoodieCleaningPolicy}; it decides how the archiver widens min/max. */
  public enum CleanerPolicy {
    KEEP_LATEST_COMMITS,
    KEEP_LATEST_FILE_VERSIONS,
    KEEP_LATEST_BY_HOURS
  }

  /** Hudi's {@code CompactionTriggerStrategy}. */
  public enum CompactionTrigger {
    NUM_COMMITS,
    NUM_COMMITS_AFTER_LAST_REQUEST,
    TIME_ELAPSED,
    NUM_AND_TIME,
    NUM_OR_TIME;

    /** Whether merge-on-read tables keep enough delta commits to schedule the next compaction. */
    boolean countsDeltaCommits() {
      return this == NUM_COMMITS || this == NUM_AND_TIME;
    }
  }

  public ArchivalPolicy {
    requireNonNull(cleanerPolicy, "cleanerPolicy is null");
    requireNonNull(compactionTrigger, "compactionTrigger is null");
    requireNonNull(retainMinAge, "retainMinAge is null");
    requireNonNull(maxInstantsPerRun, "maxInstantsPerRun is null");
    MIN_COMMITS.checked(minCommits);
    if (minCommits >= maxCommits) {
      throw new IllegalArgumentException(
          MIN_COMMITS.key()
              + "="
              + minCommits
              + " must be less than "
              + MAX_COMMITS.key()
              + "="
              + maxCommits);
    }
    CLEANER_COMMITS_RETAINED.checked(cleanerCommitsRetained);
    CLEANER_HOURS_RETAINED.checked(cleanerHoursRetained);
    COMPACTION_MAX_DELTA_COMMITS.checked(compactionMaxDeltaCommits);
    retainMinAge.ifPresent(RETAIN_MIN_AGE::checked);
    if (maxInstantsPerRun.isPresent()) {
      MAX_INSTANTS_PER_RUN.checked(maxInstantsPerRun.getAsInt());
    }
  }

  /** Hudi's defaults, no minimum age and no cap. */
  public static ArchivalPolicy defaults() {
    return fromConfig(Map.of());
  }

  /**
   * Reads {@link #SETTINGS} from {@code config}; other keys are ignored, since other parts of the
   * archiver read them.
   *
   * @throws IllegalArgumentException naming the key and the value when a value is malformed or out
   *     of range
   */
  public static ArchivalPolicy fromConfig(Map<String, String> config) {
    requireNonNull(config, "config is null");
    Optional<Integer> cap = MAX_INSTANTS_PER_RUN.find(config);
    return new ArchivalPolicy(
        MIN_COMMITS.get(config),
        MAX_COMMITS.get(config),
        ARCHIVE_BEYOND_SAVEPOINT.get(config),
        CLEANER_POLICY.get(config),
        CLEANER_COMMITS_RETAINED.get(config),
        CLEANER_HOURS_RETAINED.get(config),
        COMPACTION_MAX_DELTA_COMMITS.get(config),
        COMPACTION_TRIGGER.get(config),
        RETAIN_MIN_AGE.find(config),
        cap.isPresent() ? OptionalInt.of(cap.get()) : OptionalInt.empty());
  }
}
