package io.timelinearchive.config;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Checks the keys of a config against the settings that exist, so that a misspelt key fails instead
 * of silently leaving its default in force.
 */
public final class ConfigCheck {
  /** How far (in edits) a key may be from one of ours to be taken for a misspelling of it. */
  private static final int MISSPELLING = 2;

  private ConfigCheck() {}

  /**
   * @return the keys of {@code config} that nothing reads: those under a shared prefix that are not
   *     misspellings of ours, and those under no prefix of {@code namespaces}, sorted
   * @throws IllegalArgumentException naming every unknown key, with a suggestion where one is close
   */
  public static List<String> check(
      Map<String, String> config, Collection<SettingNamespace> namespaces) {
    requireNonNull(config, "config is null");
    Map<String, Setting<?>> known = new HashMap<>();
    namespaces.forEach(n -> n.settings().forEach(s -> s.keys().forEach(k -> known.put(k, s))));
    List<String> unknown = new ArrayList<>();
    List<String> suggestions = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    for (String key : new TreeSet<>(config.keySet())) {
      if (known.containsKey(key)) {
        continue;
      }
      Optional<SettingNamespace> namespace =
          namespaces.stream().filter(n -> key.startsWith(n.prefix())).findFirst();
      Optional<String> suggestion = namespace.flatMap(n -> suggest(key, n));
      SettingNamespace.Kind kind = namespace.map(SettingNamespace::kind).orElse(null);
      if (kind == SettingNamespace.Kind.EXCLUSIVE || suggestion.isPresent()) {
        unknown.add(key);
        suggestion.ifPresent(suggestions::add);
      } else if (kind != SettingNamespace.Kind.PASSED_ON) {
        ignored.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(message(unknown, suggestions, namespaces));
    }
    return ignored;
  }

  private static String message(
      List<String> unknown, List<String> suggestions, Collection<SettingNamespace> namespaces) {
    StringBuilder m =
        new StringBuilder(unknown.size() == 1 ? "unknown setting " : "unknown settings ")
            .append(String.join(", ", unknown));
    if (!suggestions.isEmpty()) {
      m.append("; did you mean ").append(String.join(", ", suggestions)).append("?");
    }
    for (SettingNamespace n : namespaces) {
      if (n.kind() == SettingNamespace.Kind.EXCLUSIVE
          && unknown.stream().anyMatch(k -> k.startsWith(n.prefix()))) {
        TreeSet<String> keys = new TreeSet<>();
        n.settings().forEach(s -> keys.add(s.key()));
        m.append("; the ").append(n.prefix()).append("* settings are ");
        m.append(String.join(", ", keys));
      }
    }
    return m.toString();
  }

  /**
   * The setting {@code key} most likely meant: the nearest within {@link #MISSPELLING} edits, or,
   * under a prefix of ours alone, one that the key begins (a key cut short).
   */
  static Optional<String> suggest(String key, SettingNamespace namespace) {
    String best = null;
    int bestDistance = MISSPELLING + 1;
    for (Setting<?> setting : namespace.settings()) {
      int distance = distance(key, setting.key());
      if (distance < bestDistance) {
        best = setting.key();
        bestDistance = distance;
      }
    }
    if (best == null && namespace.kind() == SettingNamespace.Kind.EXCLUSIVE) {
      for (Setting<?> setting : namespace.settings()) {
        if (setting.key().startsWith(key) || key.startsWith(setting.key())) {
          return Optional.of(setting.key());
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** Edits (insert, delete, replace, swap of neighbours) from {@code a} to {@code b}. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
