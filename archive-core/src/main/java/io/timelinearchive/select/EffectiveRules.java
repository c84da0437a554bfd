package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.Grammar;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Our own selection rules as they apply at one moment, in words: the minimum age turns into an
 * instant time, so a user sees which instants stay without doing date arithmetic.
 */
public final class EffectiveRules {
  private EffectiveRules() {}

  /** A duration written back short, as the settings accept it: {@code 7d}, {@code 12h}. */
  public static String format(Duration duration) {
    return Grammar.formatDuration(requireNonNull(duration, "duration is null"));
  }

  /**
   * Whether an instant written at {@code instantTime} (in {@code zone}) is at least {@code age} old
   * at {@code now}, read as Hudi reads instant times.
   */
  public static boolean isAtLeast(String instantTime, Duration age, Instant now, ZoneId zone) {
    requireNonNull(instantTime, "instantTime is null");
    requireNonNull(age, "age is null");
    return InstantTimes.atOrBefore(instantTime, InstantTimes.cutoff(now, age, zone));
  }

  /**
   * One line per rule of ours that is set ({@link ArchivalPolicy#RETAIN_MIN_AGE}, {@link
   * ArchivalPolicy#MAX_INSTANTS_PER_RUN}); empty when neither is.
   *
   * @param zone the zone the table writes instant times in
   */
  public static List<String> describe(ArchivalPolicy policy, Instant now, ZoneId zone) {
    requireNonNull(policy, "policy is null");
    requireNonNull(now, "now is null");
    requireNonNull(zone, "zone is null");
    List<String> rules = new ArrayList<>();
    policy
        .retainMinAge()
        .ifPresent(
            age -> {
              String cutoff = InstantTimes.cutoff(now, age, zone);
              rules.add(
                  "retain min-age "
                      + Grammar.formatDuration(age)
                      + ": "
                      + (cutoff.isEmpty()
                          ? "nothing is old enough to archive"
                          : "nothing younger than " + cutoff + " is archived"));
            });
    policy
        .maxInstantsPerRun()
        .ifPresent(
            cap ->
                rules.add(
                    "per-run cap "
                        + cap
                        + ": at most "
                        + cap
                        + " instant(s) per run, the rest wait for the next run"));
    return rules;
  }
}
