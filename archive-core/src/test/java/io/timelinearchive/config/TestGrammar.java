package io.timelinearchive.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TestGrammar {

  @Test
  void writesDurationsBackShort() {
    assertThat(Grammar.formatDuration(Duration.ofDays(7))).isEqualTo("7d");
    assertThat(Grammar.formatDuration(Duration.ofHours(1))).isEqualTo("1h");
    assertThat(Grammar.formatDuration(Duration.ofMinutes(90))).isEqualTo("90m");
    assertThat(Grammar.formatDuration(Duration.ofSeconds(5))).isEqualTo("5s");
    assertThat(Grammar.formatDuration(Duration.ofMillis(1500))).isEqualTo("1500ms");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "7d | PT168H",
        "12H | PT12H",
        "30 m | PT30M",
        "45s | PT45S",
        "250ms | PT0.25S",
        "PT1H | PT1H",
        "P2D | PT48H",
        "0s | PT0S"
      })
  void readsOneDurationGrammar(String written, String expected) throws Exception {
    assertThat(Grammar.DURATION.parse(written)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1048576 | 1048576",
        "512MiB | 536870912",
        "64 KiB | 65536",
        "1GiB | 1073741824",
        "3B | 3",
        "2TiB | 2199023255552"
      })
  void readsOneSizeGrammar(String written, long expected) throws Exception {
    assertThat(Grammar.SIZE.parse(written)).isEqualTo(expected);
  }

  @Test
  void refusesWhatIsNotInTheGrammar() {
    assertThatThrownBy(() -> Grammar.DURATION.parse("7 days"))
        .hasMessageContaining("is not a duration");
    assertThatThrownBy(() -> Grammar.DURATION.parse("PT-1H")).hasMessageContaining("negative");
    assertThatThrownBy(() -> Grammar.SIZE.parse("8MB")).hasMessageContaining("is not a size");
    assertThatThrownBy(() -> Grammar.SIZE.parse("99999999999TiB"))
        .hasMessageContaining("is not a size");
    assertThatThrownBy(() -> Grammar.BOOLEAN.parse("yes")).hasMessage("is not true or false");
    assertThatThrownBy(() -> Grammar.INT.parse("2.5")).hasMessage("is not a whole number");
  }

  @Test
  void writesSizesBackInTheLargestUnit() {
    assertThat(Grammar.formatSize(16L << 20)).isEqualTo("16MiB");
    assertThat(Grammar.formatSize(1536)).isEqualTo("1536B");
    assertThat(Grammar.formatSize(20L * 1024 * 1024)).isEqualTo("20MiB");
    assertThat(Grammar.formatSize(0)).isEqualTo("0B");
  }

  @Test
  void endpointsAreHttpUrlsWithoutSecrets() throws Exception {
    assertThat(Grammar.httpEndpoint(false).parse("http://127.0.0.1:9000"))
        .isEqualTo(URI.create("http://127.0.0.1:9000"));
    assertThat(Grammar.httpEndpoint(true).parse("http://127.0.0.1:10000/devstoreaccount1"))
        .isEqualTo(URI.create("http://127.0.0.1:10000/devstoreaccount1"));
    assertThatThrownBy(() -> Grammar.httpEndpoint(false).parse("http://host/path"))
        .hasMessageContaining("without path");
    assertThatThrownBy(() -> Grammar.httpEndpoint(false).parse("ftp://host"))
        .hasMessageContaining("http(s)://host[:port]");
    assertThatThrownBy(() -> Grammar.httpEndpoint(false).parse("https://user:s3cret@host"))
        .satisfies(
            e -> {
              assertThat(e.getMessage()).doesNotContain("s3cret");
              assertThat(((ValueParser.InvalidValueException) e).hidesValue()).isTrue();
            });
  }
}
