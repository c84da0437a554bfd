package io.timelinearchive.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TestArchiveFileName {
  @Test
  void namesAreHudis() {
    assertThat(ArchiveFileName.of(1)).isEqualTo(".commits_.archive.1_1-0-1");
    assertThat(ArchiveFileName.of(123)).isEqualTo(".commits_.archive.123_1-0-1");
    assertThatThrownBy(() -> ArchiveFileName.of(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void versionsAreReadFromNames() {
    assertThat(ArchiveFileName.version(".commits_.archive.1_1-0-1")).hasValue(1);
    assertThat(ArchiveFileName.version(".commits_.archive.42_1-0-1")).hasValue(42);
    assertThat(ArchiveFileName.version(".commits_.archive.7")).hasValue(7);
    assertThat(ArchiveFileName.version(".commits_.archive.7_2-5-9")).hasValue(7);
    assertThat(ArchiveFileName.version(ArchiveFileName.of(9000))).hasValue(9000);
  }

  @Test
  void otherNamesHaveNoVersion() {
    for (String name :
        new String[] {
          "mergeArchivePlan",
          ".commits_.archive.",
          ".commits_.archive.x_1-0-1",
          ".commits_.archive.1-1-0-1",
          "commits_.archive.1_1-0-1",
          "..commits_.archive.1_1-0-1.crc",
          ".commits_.archive.99999999999_1-0-1",
        }) {
      assertThat(ArchiveFileName.version(name)).as(name).isEqualTo(OptionalInt.empty());
    }
  }
}
