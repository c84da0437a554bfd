package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's settings tables (the main README's and each storage module's) list exactly the
 * settings the code registers, each once, with the default the code documents.
 */
class TestSettingsTables {
  // | `key` (`--option`) | default | meaning |
  private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.-]+)`[^|]*\\| ([^|]*) \\|");

  @Test
  void readmesListEveryRegisteredSettingWithItsDefault() throws IOException {
    Map<String, String> registered = new TreeMap<>();
    List<String> prefixes = new ArrayList<>();
    for (SettingNamespace namespace : TimelineArchiver.settingNamespaces()) {
      prefixes.add(namespace.prefix());
      for (Setting<?> setting : namespace.settings()) {
        registered.put(setting.key(), setting.documentedDefault());
      }
    }
    Map<String, String> documented = new TreeMap<>();
    List<String> twice = new ArrayList<>();
    for (Path readme : readmes()) {
      for (String line : Files.readAllLines(readme)) {
        Matcher m = ROW.matcher(line);
        if (m.find() && prefixes.stream().anyMatch(p -> m.group(1).startsWith(p))) {
          String defaultValue = m.group(2).strip().replace("`", "");
          if (documented.put(m.group(1), defaultValue) != null) {
            twice.add(m.group(1) + " (" + readme + ")");
          }
        }
      }
    }
    assertThat(twice).as("keys in more than one settings row").isEmpty();
    assertThat(documented).isEqualTo(registered);
  }

  private static List<Path> readmes() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> readmes = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> modules = Files.list(root)) {
      modules
          .filter(p -> p.getFileName().toString().startsWith("storage-"))
          .map(p -> p.resolve("README.md"))
          .filter(Files::exists)
          .sorted()
          .forEach(readmes::add);
    }
    assertThat(readmes).hasSizeGreaterThan(4);
    return readmes;
  }
}
