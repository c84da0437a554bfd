package io.timelinearchive.hudi;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.config.Setting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** This module's README lists exactly the callback's settings, with the defaults the code has. */
class TestCallbackSettingsTable {
  private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.-]+)` \\| ([^|]*) \\|");

  @Test
  void theReadmeListsEverySettingWithItsDefault() throws Exception {
    Map<String, String> registered = new TreeMap<>();
    for (Setting<?> setting : CallbackSettings.SETTINGS) {
      registered.put(setting.key(), setting.documentedDefault());
    }
    registered.put(
        CallbackSettings.HUDI_AUTOMATIC_ARCHIVAL.key(),
        CallbackSettings.HUDI_AUTOMATIC_ARCHIVAL.documentedDefault());
    Map<String, String> documented = new TreeMap<>();
    for (String line : Files.readAllLines(Path.of("README.md"))) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        documented.put(m.group(1), m.group(2).strip());
      }
    }
    assertThat(documented).isEqualTo(registered);
  }
}
