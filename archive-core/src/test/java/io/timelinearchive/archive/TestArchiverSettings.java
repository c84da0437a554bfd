package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TestArchiverSettings {

  @Test
  void defaultsAreHudisAndOurs() {
    ArchiverSettings settings = ArchiverSettings.fromConfig(Map.of());
    assertThat(settings.archivalBatch()).isEqualTo(10);
    assertThat(settings.failOnArchivingError()).isTrue();
    assertThat(settings.readParallelism()).isEqualTo(16);
    assertThat(settings.lockLease()).isEqualTo(Duration.ofMinutes(10));
    assertThat(settings.maxArchiveFileBytes()).isEqualTo(512L << 20);
    assertThat(settings.writeBufferBytes()).isEqualTo(16L << 20);
    assertThat(settings.historyMaxAge()).isEmpty();
    assertThat(settings.merge().enabled()).isEmpty();
  }

  @Test
  void readsWriteSettingsAsWritten() {
    ArchiverSettings settings =
        ArchiverSettings.fromConfig(
            Map.of(
                "hoodie.commits.archival.batch", "3",
                "hoodie.fail.on.timeline.archiving", "false",
                "archive.file.max-bytes", "64MiB",
                "archive.write.buffer-bytes", "1048576",
                "archive.history.max-age", "30d"));
    assertThat(settings.archivalBatch()).isEqualTo(3);
    assertThat(settings.failOnArchivingError()).isFalse();
    assertThat(settings.maxArchiveFileBytes()).isEqualTo(64L << 20);
    assertThat(settings.writeBufferBytes()).isEqualTo(1L << 20);
    assertThat(settings.historyMaxAge()).contains(Duration.ofDays(30));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "hoodie.commits.archival.batch     | 0    | hoodie.commits.archival.batch='0' must be at least 1",
        "hoodie.commits.archival.batch     | x    | hoodie.commits.archival.batch='x' is not a whole number",
        "hoodie.fail.on.timeline.archiving | yes  | hoodie.fail.on.timeline.archiving='yes' is not true or false",
        "archive.read.parallelism          | 257  | archive.read.parallelism='257' must be from 1 to 256",
        "archive.lock.lease                | 500ms | archive.lock.lease='500ms' must be at least 1s",
        "archive.file.max-bytes            | 1000 | archive.file.max-bytes='1000' must be at least 1KiB",
        "archive.write.buffer-bytes        | 8MB  | archive.write.buffer-bytes='8MB' is not a size",
        "archive.history.max-age           | PT-1H | archive.history.max-age='PT-1H' must not be negative"
      })
  void rejectsBadValuesNamingKeyAndValue(String key, String value, String expected) {
    assertThatThrownBy(() -> ArchiverSettings.fromConfig(Map.of(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(expected);
  }
}
