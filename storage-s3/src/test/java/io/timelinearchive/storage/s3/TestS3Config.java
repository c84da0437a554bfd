package io.timelinearchive.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.config.Setting;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TestS3Config {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String TOKEN = "FwoGZXIvYXdzEXAMPLETOKEN";

  @Test
  void defaults() {
    S3Config config = S3Config.parse(Map.of("hoodie.keep.min.commits", "20"));
    assertThat(config.endpoint()).isEmpty();
    assertThat(config.region()).isEmpty();
    assertThat(config.pathStyleAccess()).isFalse();
    assertThat(config.staticKeys()).isEmpty();
    assertThat(config.deleteBatchSize()).isEqualTo(1000);
    assertThat(config.listPageSize()).isEqualTo(1000);
    assertThat(config.requestParallelism()).isEqualTo(16);
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.socketTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.apiCallTimeout()).isEmpty();
    assertThat(config.maxAttempts()).isEqualTo(4);
    assertThat(config.multipartThreshold()).isEqualTo(16L << 20);
    assertThat(config.partSize()).isEqualTo(8L << 20);
  }

  @Test
  void everySetting() {
    Map<String, String> settings = new HashMap<>();
    settings.put("s3.endpoint", "http://127.0.0.1:9000");
    settings.put("s3.region", "eu-west-3");
    settings.put("s3.path-style-access", "TRUE");
    settings.put("s3.access-key", "AKIAEXAMPLE");
    settings.put("s3.secret-key", SECRET);
    settings.put("s3.session-token", TOKEN);
    settings.put("s3.delete-batch-size", "250");
    settings.put("s3.list-page-size", " 7 ");
    settings.put("s3.request-parallelism", "4");
    settings.put("s3.connect-timeout", "500ms");
    settings.put("s3.socket-timeout", "PT1M");
    settings.put("s3.connection-acquisition-timeout", "2m");
    settings.put("s3.api-call-timeout", "1h");
    settings.put("s3.api-call-attempt-timeout", "45s");
    settings.put("s3.max-retries", "0");
    settings.put("s3.multipart-threshold", "64MiB");
    settings.put("s3.part-size", "5242880");

    S3Config config = S3Config.parse(settings);

    assertThat(config.endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(config.region()).contains("eu-west-3");
    assertThat(config.pathStyleAccess()).isTrue();
    assertThat(config.staticKeys())
        .contains(new S3Config.StaticKeys("AKIAEXAMPLE", SECRET, Optional.of(TOKEN)));
    assertThat(config.deleteBatchSize()).isEqualTo(250);
    assertThat(config.listPageSize()).isEqualTo(7);
    assertThat(config.requestParallelism()).isEqualTo(4);
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.socketTimeout()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.connectionAcquisitionTimeout()).isEqualTo(Duration.ofMinutes(2));
    assertThat(config.apiCallTimeout()).contains(Duration.ofHours(1));
    assertThat(config.apiCallAttemptTimeout()).contains(Duration.ofSeconds(45));
    assertThat(config.maxAttempts()).isEqualTo(1);
    assertThat(config.multipartThreshold()).isEqualTo(64L << 20);
    assertThat(config.partSize()).isEqualTo(5L << 20);
    assertThat(config.toString()).doesNotContain(SECRET, TOKEN);
  }

  @Test
  void blankValuesAreRefused() {
    assertThatThrownBy(() -> S3Config.parse(Map.of("s3.endpoint", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3.endpoint is blank");
    assertThatThrownBy(() -> S3Config.parse(Map.of("s3.access-key", "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3.access-key is blank");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "s3.delete-batch-size|0|from 1 to 1000",
        "s3.delete-batch-size|1001|from 1 to 1000",
        "s3.delete-batch-size|many|is not a whole number",
        "s3.list-page-size|-1|from 1 to 1000",
        "s3.request-parallelism|0|from 1 to 256",
        "s3.max-retries|21|from 0 to 20",
        "s3.path-style-access|yes|true or false",
        "s3.connect-timeout|10|is not a duration",
        "s3.socket-timeout|0s|must be at least 1ms",
        "s3.api-call-timeout|PT-1S|must not be negative",
        "s3.multipart-threshold|1MiB|from 5MiB to 5GiB",
        "s3.part-size|6GiB|from 5MiB to 5GiB",
        "s3.part-size|8MB|is not a size",
        "s3.endpoint|ftp://host|http(s)://host[:port]",
        "s3.endpoint|http://host/path|without path",
        "s3.endpoint|http://|is not a URL",
        "s3.endpoint|http:///x|is not an http(s)://host[:port] URL",
        "s3.region|EU West|region name",
      })
  void invalidSettingIsNamedWithItsValue(String key, String value, String expected) {
    assertThatThrownBy(() -> S3Config.parse(Map.of(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(expected);
  }

  @Test
  void unknownS3KeyIsRejectedWithTheKnownOnes() {
    assertThatThrownBy(() -> S3Config.parse(Map.of("s3.path-style", "true", "s3.regoin", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3.path-style, s3.regoin")
        .hasMessageContaining("s3.path-style-access");
  }

  @Test
  void misspeltKeyGetsASuggestion() {
    assertThatThrownBy(() -> S3Config.parse(Map.of("s3.max-retires", "2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown setting s3.max-retires; did you mean s3.max-retries?");
  }

  @Test
  void secretsAreNeverInMessages() {
    assertThatThrownBy(() -> S3Config.parse(Map.of("s3.secret-key", SECRET)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3.secret-key is set but s3.access-key is not")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> S3Config.parse(Map.of("s3.access-key", "AKIAEXAMPLE")))
        .hasMessageContaining("s3.access-key is set but s3.secret-key is not");
    assertThatThrownBy(() -> S3Config.parse(Map.of("s3.session-token", TOKEN)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3.session-token")
        .hasMessageNotContaining(TOKEN);
    assertThatThrownBy(
            () -> S3Config.parse(Map.of("s3.endpoint", "http://user:" + SECRET + "@host:9000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3.endpoint")
        .hasMessageNotContaining(SECRET);
  }

  @Test
  void durationsAndSizesAreWrittenAsEverywhereElse() {
    S3Config config =
        S3Config.parse(
            Map.of(
                "s3.api-call-timeout", "7d",
                "s3.api-call-attempt-timeout", "PT90S",
                "s3.part-size", "1GiB",
                "s3.multipart-threshold", "6 MiB"));
    assertThat(config.apiCallTimeout()).contains(Duration.ofDays(7));
    assertThat(config.apiCallAttemptTimeout()).contains(Duration.ofSeconds(90));
    assertThat(config.partSize()).isEqualTo(1L << 30);
    assertThat(config.multipartThreshold()).isEqualTo(6L << 20);
  }

  @Test
  void secretsAreDeclaredSecret() {
    assertThat(S3Config.SETTINGS.stream().filter(Setting::secret).map(Setting::key))
        .containsExactly("s3.secret-key", "s3.session-token");
  }
}
