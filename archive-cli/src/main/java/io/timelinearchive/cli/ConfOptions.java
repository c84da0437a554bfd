package io.timelinearchive.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code --conf KEY=VALUE} settings of a command line, in the order given. */
final class ConfOptions {
  private ConfOptions() {}

  /**
   * @throws IllegalArgumentException naming the setting that is not {@code KEY=VALUE}
   */
  static Map<String, String> parse(List<String> settings) {
    Map<String, String> config = new LinkedHashMap<>();
    for (String setting : settings) {
      int eq = setting.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "invalid --conf '"
                + setting
                + "': expected KEY=VALUE, e.g. hoodie.keep.min.commits=20");
      }
      config.put(setting.substring(0, eq).strip(), setting.substring(eq + 1));
    }
    return config;
  }
}
