package io.timelinearchive.config;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The settings under one key prefix, and who else writes keys there.
 *
 * @param prefix for example {@code s3.}
 * @param settings every setting of ours under the prefix
 * @param kind what another key under the prefix is
 */
public record SettingNamespace(String prefix, List<Setting<?>> settings, Kind kind) {

  /** What a key under the prefix that is none of {@link #settings()} is. */
  public enum Kind {
    /**
     * A mistake: only this project writes keys under the prefix ({@code archive.}, {@code s3.}).
     */
    EXCLUSIVE,
    /**
     * Another tool's setting, not read here, unless it looks like a misspelt one of ours: a whole
     * Hudi write config carries many {@code hoodie.} keys.
     */
    SHARED,
    /**
     * Handed on to a library that reads it ({@code hadoop.fs.defaultFS}), unless it looks like a
     * misspelt one of ours.
     */
    PASSED_ON
  }

  public SettingNamespace {
    requireNonNull(prefix, "prefix is null");
    settings = List.copyOf(settings);
    requireNonNull(kind, "kind is null");
    if (!prefix.endsWith(".")) {
      throw new IllegalArgumentException("a namespace prefix ends with '.': " + prefix);
    }
    for (Setting<?> setting : settings) {
      if (!setting.key().startsWith(prefix)) {
        throw new IllegalArgumentException(setting.key() + " is not under " + prefix);
      }
    }
  }

  public static SettingNamespace exclusive(String prefix, List<Setting<?>> settings) {
    return new SettingNamespace(prefix, settings, Kind.EXCLUSIVE);
  }

  public static SettingNamespace shared(String prefix, List<Setting<?>> settings) {
    return new SettingNamespace(prefix, settings, Kind.SHARED);
  }

  public static SettingNamespace passedOn(String prefix, List<Setting<?>> settings) {
    return new SettingNamespace(prefix, settings, Kind.PASSED_ON);
  }
}
