package io.timelinearchive.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.timeline.State;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TestHudi1InstantFileName {
  @ParameterizedTest
  @CsvSource({
    "20250101000000001.commit.requested, 20250101000000001, commit, REQUESTED, ''",
    "20250101000000001.inflight, 20250101000000001, commit, INFLIGHT, ''",
    "20250101000000001_20250101000000005.commit, 20250101000000001, commit, COMPLETED, 20250101000000005",
    "20250101000000001.deltacommit.inflight, 20250101000000001, deltacommit, INFLIGHT, ''",
    "20250101000000001_20250101000000009.deltacommit, 20250101000000001, deltacommit, COMPLETED, 20250101000000009",
    "20250101000000001.compaction.requested, 20250101000000001, compaction, REQUESTED, ''",
    "20250101000000001.clustering.inflight, 20250101000000001, clustering, INFLIGHT, ''",
    "20250101000000001_20250101000000002.clean, 20250101000000001, clean, COMPLETED, 20250101000000002",
    "20250101000000001.savepoint.inflight, 20250101000000001, savepoint, INFLIGHT, ''",
    "20250101000000001.commit, 20250101000000001, commit, COMPLETED, ''"
  })
  void namesHudiWritesAreParsedAndWrittenBack(
      String name, String requested, String action, State state, String completion) {
    var parsed = (Hudi1InstantFileName.Result.Parsed) Hudi1InstantFileName.parse(name);
    assertThat(parsed.requestedTime()).isEqualTo(requested);
    assertThat(parsed.action()).isEqualTo(action);
    assertThat(parsed.state()).isEqualTo(state);
    assertThat(parsed.completionTime())
        .isEqualTo(completion.isEmpty() ? Optional.empty() : Optional.of(completion));
    if (!completion.isEmpty() || state.isPending()) {
      assertThat(
              Hudi1InstantFileName.of(
                  new Hudi1Instant(requested, action, state, parsed.completionTime())))
          .isEqualTo(name);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "20250101000000001_20250101000000002.compaction",
        "20250101000000001_20250101000000002.clustering",
        "20250101000000001.commit.inflight",
        "20250101000000001.savepoint.requested",
        "20250101000000001.frobnicate",
        "20250101000000001_20250101000000002.commit.requested"
      })
  void namesHudiNeverListsAreMalformed(String name) {
    assertThat(Hudi1InstantFileName.parse(name))
        .isInstanceOf(Hudi1InstantFileName.Result.Malformed.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"hoodie.properties", "history", ".20250101000000001.commit.crc", "_version_"})
  void otherNamesAreNoInstants(String name) {
    assertThat(Hudi1InstantFileName.parse(name))
        .isInstanceOf(Hudi1InstantFileName.Result.NotAnInstant.class);
  }
}
