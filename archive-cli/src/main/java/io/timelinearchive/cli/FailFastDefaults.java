package io.timelinearchive.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command's own storage timeouts and retries, under the library's (the SDKs'), which suit a
 * long-lived writer: someone at a shell waits for an answer, so a dead endpoint fails in seconds
 * (under 15 with these: a few attempts of a few seconds each) and the error names these keys. A
 * {@code --conf} of the same key, or of the Hadoop key one of ours stands for, wins.
 */
final class FailFastDefaults {
  private record Default(String key, String value, List<String> alsoSetBy) {}

  private static final List<Default> DEFAULTS =
      List.of(
          new Default("s3.connect-timeout", "3s", List.of()),
          new Default("s3.socket-timeout", "3s", List.of()),
          new Default("s3.max-retries", "2", List.of()),
          new Default("gcs.connect-timeout", "3s", List.of()),
          new Default("gcs.read-timeout", "3s", List.of()),
          // one retry: the GCS client waits 1 s, then 2 s, between its attempts
          new Default("gcs.retries", "1", List.of()),
          new Default("azure.connect-timeout", "3s", List.of()),
          new Default("azure.response-timeout", "3s", List.of()),
          new Default("azure.max-retries", "2", List.of()),
          new Default("azure.retry-delay", "500ms", List.of()),
          new Default("hadoop.connect-timeout", "3s", List.of("hadoop.ipc.client.connect.timeout")),
          new Default("hadoop.request-timeout", "8s", List.of("hadoop.ipc.client.rpc-timeout.ms")),
          new Default(
              "hadoop.connect-retries",
              "2",
              List.of(
                  "hadoop.ipc.client.connect.max.retries",
                  "hadoop.ipc.client.connect.max.retries.on.timeouts")));

  private FailFastDefaults() {}

  /** {@code config} with the defaults it does not override. */
  static Map<String, String> under(Map<String, String> config) {
    Map<String, String> all = new LinkedHashMap<>(config);
    for (Default d : DEFAULTS) {
      if (!config.containsKey(d.key()) && d.alsoSetBy().stream().noneMatch(config::containsKey)) {
        all.put(d.key(), d.value());
      }
    }
    return all;
  }
}
