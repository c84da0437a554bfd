package io.timelinearchive.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestSetting {
  private static final Setting<Integer> PARALLELISM =
      Setting.integer("archive.read.parallelism").defaultValue(16).between(1, 256).build();
  private static final Setting<String> SECRET = Setting.text("s3.secret-key").secret().build();
  private static final Setting<Duration> LEASE =
      Setting.duration("archive.lock.lease").defaultValue(Duration.ofMinutes(10)).build();

  @Test
  void readsTheValueOrTheDefault() {
    assertThat(PARALLELISM.get(Map.of())).isEqualTo(16);
    assertThat(PARALLELISM.get(Map.of("archive.read.parallelism", " 4 "))).isEqualTo(4);
    assertThat(PARALLELISM.find(Map.of())).isEmpty();
    assertThat(LEASE.documentedDefault()).isEqualTo("10m");
    assertThat(SECRET.documentedDefault()).isEqualTo("none");
  }

  @Test
  void aRenamedSettingIsReadByEitherNameTheKeyFirstAndErrorsNameTheOneGiven() {
    Setting<Integer> retained =
        Setting.integer("hoodie.cleaner.commits.retained")
            .alsoNamed("hoodie.clean.commits.retained")
            .defaultValue(10)
            .atLeast(0)
            .build();
    assertThat(retained.keys())
        .containsExactly("hoodie.cleaner.commits.retained", "hoodie.clean.commits.retained");
    assertThat(retained.get(Map.of("hoodie.clean.commits.retained", "3"))).isEqualTo(3);
    assertThat(
            retained.get(
                Map.of(
                    "hoodie.cleaner.commits.retained", "4", "hoodie.clean.commits.retained", "3")))
        .isEqualTo(4);
    assertThat(retained.isSet(Map.of("hoodie.clean.commits.retained", "3"))).isTrue();
    assertThatThrownBy(() -> retained.get(Map.of("hoodie.clean.commits.retained", "-1")))
        .hasMessage("hoodie.clean.commits.retained='-1' must be at least 0");
    assertThat(
            ConfigCheck.check(
                Map.of("hoodie.clean.commits.retained", "3"),
                java.util.List.of(SettingNamespace.shared("hoodie.", java.util.List.of(retained)))))
        .isEmpty();
  }

  @Test
  void errorsNameTheKeyAndTheValue() {
    assertThatThrownBy(() -> PARALLELISM.get(Map.of("archive.read.parallelism", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("archive.read.parallelism='0' must be from 1 to 256");
    assertThatThrownBy(() -> PARALLELISM.get(Map.of("archive.read.parallelism", "many")))
        .hasMessage("archive.read.parallelism='many' is not a whole number");
    assertThatThrownBy(() -> PARALLELISM.checked(300))
        .hasMessage("archive.read.parallelism='300' must be from 1 to 256");
  }

  @Test
  void blankIsRefusedNotReadAsUnset() {
    assertThatThrownBy(() -> PARALLELISM.get(Map.of("archive.read.parallelism", "  ")))
        .hasMessage(
            "archive.read.parallelism is blank: give a value, or leave the key out for the default");
  }

  @Test
  void aSecretIsNeverShown() {
    Setting<Integer> secretNumber = Setting.integer("x.pin").secret().build();
    assertThatThrownBy(() -> secretNumber.get(Map.of("x.pin", "12ab")))
        .hasMessage("x.pin is not a whole number");
    assertThat(SECRET.find(Map.of("s3.secret-key", "hush"))).contains("hush");
    assertThat(SECRET.toString()).isEqualTo("s3.secret-key");
  }
}
