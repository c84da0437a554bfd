package io.timelinearchive.storage.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TestGcsConfig {
  @TempDir Path temp;

  @Test
  void defaults() {
    GcsConfig config = GcsConfig.from(Map.of("s3.endpoint", "ignored", "hoodie.x", "ignored"));

    assertThat(config.projectId()).isEmpty();
    assertThat(config.endpoint()).isEmpty();
    assertThat(config.credentialsFile()).isEmpty();
    assertThat(config.noCredentials()).isFalse();
    assertThat(config.batchSize()).isEqualTo(100);
    assertThat(config.parallelism()).isEqualTo(4);
    assertThat(config.retries()).isEqualTo(5);
    assertThat(config.listPageSize()).isEqualTo(1000);
    assertThat(config.singleRequestUploadMaxBytes()).isEqualTo(8 << 20);
  }

  @Test
  void readsEverySetting() throws IOException {
    Path key = Files.writeString(temp.resolve("key.json"), "{}");
    Map<String, String> settings = new HashMap<>();
    settings.put("gcs.project-id", "my-project");
    settings.put("gcs.endpoint", "http://127.0.0.1:4443/");
    settings.put("gcs.credentials-file", key.toString());
    settings.put("gcs.no-credentials", "FALSE");
    settings.put("gcs.batch-size", "50");
    settings.put("gcs.parallelism", "2");
    settings.put("gcs.retries", "0");
    settings.put("gcs.list-page-size", "10");
    settings.put("gcs.single-request-upload-max-bytes", "1024");
    settings.put("gcs.connect-timeout", "2s");
    settings.put("gcs.read-timeout", "1500ms");

    GcsConfig config = GcsConfig.from(settings);

    assertThat(config)
        .isEqualTo(
            new GcsConfig(
                Optional.of("my-project"),
                Optional.of(URI.create("http://127.0.0.1:4443")),
                Optional.of(key),
                false,
                50,
                2,
                0,
                10,
                1024,
                Duration.ofSeconds(2),
                Duration.ofMillis(1500)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "gcs.batch-size|0|gcs.batch-size='0' must be from 1 to 100",
        "gcs.batch-size|101|gcs.batch-size='101' must be from 1 to 100",
        "gcs.batch-size|ten|gcs.batch-size='ten' is not a whole number",
        "gcs.parallelism|0|gcs.parallelism='0' must be from 1 to 64",
        "gcs.retries|-1|gcs.retries='-1' must be from 0 to 20",
        "gcs.list-page-size|1001|gcs.list-page-size='1001' must be from 1 to 1000",
        "gcs.single-request-upload-max-bytes|-5|gcs.single-request-upload-max-bytes='-5' is not a"
            + " size",
        "gcs.no-credentials|yes|gcs.no-credentials='yes' is not true or false",
        "gcs.project-id|\"  \"|gcs.project-id is blank",
        "gcs.endpoint|localhost:4443|gcs.endpoint='localhost:4443' is not an http(s)://host[:port]"
            + " URL",
        "gcs.endpoint|ftp://host|gcs.endpoint='ftp://host' is not an http(s)://host[:port] URL",
        "gcs.endpoint|http://host/storage/v1|gcs.endpoint='http://host/storage/v1' must be a bare"
            + " http(s)://host[:port] URL",
        "gcs.endpoint|http://host?x=1|gcs.endpoint='http://host?x=1' must be a bare"
            + " http(s)://host[:port] URL",
        "gcs.endpoint|http://a b|gcs.endpoint='http://a b' is not a URL",
        "gcs.credentials-file|/no/such/key.json|gcs.credentials-file='/no/such/key.json' names no"
            + " readable file",
        "gcs.batchsize|10|unknown setting gcs.batchsize; did you mean gcs.batch-size?",
      })
  void rejectsBadSettingsNamingTheKey(String key, String value, String message) {
    assertThatThrownBy(() -> GcsConfig.from(Map.of(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void credentialsFileAndNoCredentialsExcludeEachOther() throws IOException {
    Path key = Files.writeString(temp.resolve("key.json"), "{}");

    assertThatThrownBy(
            () ->
                GcsConfig.from(
                    Map.of("gcs.credentials-file", key.toString(), "gcs.no-credentials", "true")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gcs.credentials-file and gcs.no-credentials=true exclude each other");
  }

  @Test
  void neverEchoesAPasswordInTheEndpoint() {
    assertThatThrownBy(() -> GcsConfig.from(Map.of("gcs.endpoint", "https://user:s3cret@host")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gcs.endpoint must not hold user info: give credentials in their own settings")
        .satisfies(e -> assertThat(e.toString()).doesNotContain("s3cret"));
  }

  @Test
  void sizesTakeBinarySuffixes() {
    GcsConfig config = GcsConfig.from(Map.of("gcs.single-request-upload-max-bytes", "16MiB"));

    assertThat(config.singleRequestUploadMaxBytes()).isEqualTo(16L << 20);
  }
}
