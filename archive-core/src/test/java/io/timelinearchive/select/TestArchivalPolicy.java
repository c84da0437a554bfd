package io.timelinearchive.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.select.ArchivalPolicy.CompactionTrigger;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TestArchivalPolicy {

  @Test
  void defaultsAreHudis() {
    ArchivalPolicy policy = ArchivalPolicy.fromConfig(Map.of());
    assertThat(policy.minCommits()).isEqualTo(20);
    assertThat(policy.maxCommits()).isEqualTo(30);
    assertThat(policy.archiveBeyondSavepoint()).isFalse();
    assertThat(policy.cleanerPolicy()).isEqualTo(CleanerPolicy.KEEP_LATEST_COMMITS);
    assertThat(policy.cleanerCommitsRetained()).isEqualTo(10);
    assertThat(policy.cleanerHoursRetained()).isEqualTo(24);
    assertThat(policy.compactionMaxDeltaCommits()).isEqualTo(5);
    assertThat(policy.compactionTrigger()).isEqualTo(CompactionTrigger.NUM_COMMITS);
    assertThat(policy.retainMinAge()).isEmpty();
    assertThat(policy.maxInstantsPerRun()).isEmpty();
    assertThat(ArchivalPolicy.defaults()).isEqualTo(policy);
  }

  @Test
  void readsHudisKeysAsWrittenAndIgnoresOthers() {
    ArchivalPolicy policy =
        ArchivalPolicy.fromConfig(
            Map.ofEntries(
                Map.entry("hoodie.keep.min.commits", "5"),
                Map.entry("hoodie.keep.max.commits", " 8 "),
                Map.entry("hoodie.commits.archival.batch", "3"),
                Map.entry("hoodie.fail.on.timeline.archiving", "false"),
                Map.entry("hoodie.archive.beyond.savepoint", "TRUE"),
                Map.entry("hoodie.cleaner.policy", "KEEP_LATEST_BY_HOURS"),
                Map.entry("hoodie.cleaner.commits.retained", "2"),
                Map.entry("hoodie.cleaner.hours.retained", "6"),
                Map.entry("hoodie.compact.inline.max.delta.commits", "7"),
                Map.entry("hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED"),
                Map.entry("archive.retain.min-age", "7d"),
                Map.entry("archive.max-instants-per-run", "100"),
                Map.entry("hoodie.archive.merge.enable", "true"),
                Map.entry("s3.endpoint", "http://127.0.0.1:1")));
    assertThat(policy)
        .isEqualTo(
            new ArchivalPolicy(
                5,
                8,
                true,
                CleanerPolicy.KEEP_LATEST_BY_HOURS,
                2,
                6,
                7,
                CompactionTrigger.TIME_ELAPSED,
                Optional.of(Duration.ofDays(7)),
                OptionalInt.of(100)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "7d    | PT168H",
        "12h   | PT12H",
        "30m   | PT30M",
        "45s   | PT45S",
        "250ms | PT0.25S",
        "PT1H  | PT1H",
        "P2D   | PT48H",
        "0s    | PT0S"
      })
  void readsDurations(String written, String expected) {
    ArchivalPolicy policy = ArchivalPolicy.fromConfig(Map.of("archive.retain.min-age", written));
    assertThat(policy.retainMinAge()).contains(Duration.parse(expected));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "hoodie.keep.min.commits                 | ten     | 'ten'",
        "hoodie.keep.min.commits                 | 0       | ='0'",
        "hoodie.keep.min.commits                 | -3      | ='-3'",
        "hoodie.keep.min.commits                 | 30      | hoodie.keep.min.commits=30 must be less than hoodie.keep.max.commits=30",
        "hoodie.keep.min.commits                 | 31      | hoodie.keep.min.commits=31 must be less than hoodie.keep.max.commits=30",
        "hoodie.keep.max.commits                 | 2.5     | '2.5'",
        "hoodie.keep.max.commits                 | 20      | hoodie.keep.min.commits=20 must be less than hoodie.keep.max.commits=20",
        "hoodie.archive.beyond.savepoint         | 1       | '1'",
        "hoodie.cleaner.policy                   | NEWEST  | 'NEWEST'",
        "hoodie.cleaner.commits.retained         | -1      | ='-1'",
        "hoodie.compact.inline.max.delta.commits | 0       | ='0'",
        "hoodie.compact.inline.trigger.strategy  | SOMETIME| 'SOMETIME'",
        "archive.retain.min-age                  | 7 days  | '7 days'",
        "archive.retain.min-age                  | -7d     | '-7d'",
        "archive.retain.min-age                  | PT-1H   | 'PT-1H'",
        "archive.retain.min-age                  | 99999999999999999999d | '99999999999999999999d'",
        "archive.max-instants-per-run            | 0       | ='0'",
        "archive.max-instants-per-run            | many    | 'many'"
      })
  void rejectsBadValuesNamingKeyAndValue(String key, String value, String expected) {
    assertThatThrownBy(() -> ArchivalPolicy.fromConfig(Map.of(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(expected);
  }
}
