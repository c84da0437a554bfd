package io.timelinearchive.config;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One typed setting: its key, how a value is written ({@link ValueParser}), its default, its
 * bounds, whether it is a secret, and one line of documentation, all in one place.
 *
 * <p>Every error is an {@link IllegalArgumentException} whose message starts with the key and, for
 * settings that are not secret, the value as written: {@code archive.read.parallelism='0' must be
 * from 1 to 256}. A blank value is refused rather than read as unset, so that a half-filled
 * template fails loudly instead of falling back to a default.
 *
 * @param <T> the type of the value
 */
public final class Setting<T> {
  private final String key;
  private final List<String> otherNames;
  private final ValueParser<T> parser;
  private final Optional<T> defaultValue;
  private final String documentedDefault;
  private final List<Bound<T>> bounds;
  private final boolean secret;
  private final String doc;
  private final Function<T, String> format;

  private Setting(Builder<T> b) {
    this.format = b.format;
    this.key = b.key;
    this.otherNames = List.copyOf(b.otherNames);
    this.parser = b.parser;
    this.defaultValue = b.defaultValue;
    this.documentedDefault = b.documentedDefault;
    this.bounds = List.copyOf(b.bounds);
    this.secret = b.secret;
    this.doc = b.doc;
  }

  /** A setting read with {@code parser}; finish it with {@link Builder#build()}. */
  public static <T> Builder<T> of(String key, ValueParser<T> parser) {
    return new Builder<>(key, parser);
  }

  /** A whole-number setting ({@link Grammar#INT}). */
  public static Builder<Integer> integer(String key) {
    return of(key, Grammar.INT);
  }

  /** A whole-number setting that may exceed an int ({@link Grammar#LONG}). */
  public static Builder<Long> wholeNumber(String key) {
    return of(key, Grammar.LONG);
  }

  /** {@code true} or {@code false} ({@link Grammar#BOOLEAN}). */
  public static Builder<Boolean> bool(String key) {
    return of(key, Grammar.BOOLEAN);
  }

  /** A duration ({@link Grammar#DURATION}). */
  public static Builder<java.time.Duration> duration(String key) {
    return of(key, Grammar.DURATION).formattedWith(Grammar::formatDuration);
  }

  /** A number of bytes, optionally with a binary suffix ({@link Grammar#SIZE}). */
  public static Builder<Long> size(String key) {
    return of(key, Grammar.SIZE).formattedWith(Grammar::formatSize);
  }

  /** Free text, trimmed ({@link Grammar#TEXT}). */
  public static Builder<String> text(String key) {
    return of(key, Grammar.TEXT);
  }

  /** One of an enum's constants, in any case. */
  public static <E extends Enum<E>> Builder<E> oneOf(String key, Class<E> type) {
    return of(key, Grammar.enumOf(type));
  }

  public String key() {
    return key;
  }

  public boolean secret() {
    return secret;
  }

  /** One line for the settings table. */
  public String doc() {
    return doc;
  }

  /** The default as the settings table writes it, e.g. {@code 20}, {@code 10m} or {@code off}. */
  public String documentedDefault() {
    return documentedDefault;
  }

  public Optional<T> defaultValue() {
    return defaultValue;
  }

  /** Whether {@code config} sets this key at all. */
  public boolean isSet(Map<String, String> config) {
    return keyGiven(config).isPresent();
  }

  /** The key, then the other names it goes by ({@link Builder#alsoNamed}). */
  public List<String> keys() {
    List<String> keys = new ArrayList<>(1 + otherNames.size());
    keys.add(key);
    keys.addAll(otherNames);
    return keys;
  }

  /** The first of {@link #keys()} that {@code config} gives a value for. */
  private Optional<String> keyGiven(Map<String, String> config) {
    return keys().stream().filter(k -> config.get(k) != null).findFirst();
  }

  /**
   * The value {@code config} gives, parsed and checked, if it gives one.
   *
   * @throws IllegalArgumentException naming the key (and the value, unless secret) when the value
   *     is blank, malformed or out of bounds
   */
  public Optional<T> find(Map<String, String> config) {
    Optional<String> given = keyGiven(config);
    if (given.isEmpty()) {
      return Optional.empty();
    }
    String text = config.get(given.get()).strip();
    if (text.isEmpty()) {
      throw new IllegalArgumentException(
          given.get() + " is blank: give a value, or leave the key out for the default");
    }
    T value;
    try {
      value = parser.parse(text);
    } catch (ValueParser.InvalidValueException e) {
      throw invalid(given.get(), text, e.why(), e.hidesValue(), e);
    }
    for (Bound<T> bound : bounds) {
      Optional<String> why = bound.check(value);
      if (why.isPresent()) {
        throw invalid(given.get(), text, why.get(), false, null);
      }
    }
    return Optional.of(value);
  }

  /**
   * {@code value} if it is within this setting's bounds, for values given in code rather than
   * written in a config.
   *
   * @throws IllegalArgumentException as {@link #find} does for a value out of bounds
   */
  public T checked(T value) {
    requireNonNull(value, key + " is null");
    for (Bound<T> bound : bounds) {
      Optional<String> why = bound.check(value);
      if (why.isPresent()) {
        throw invalid(key, formatted(value), why.get(), false, null);
      }
    }
    return value;
  }

  /**
   * The value {@code config} gives, or the default.
   *
   * @throws IllegalStateException if the key is unset and this setting has no default
   */
  public T get(Map<String, String> config) {
    return find(config)
        .or(() -> defaultValue)
        .orElseThrow(() -> new IllegalStateException(key + " has no default"));
  }

  private IllegalArgumentException invalid(
      String givenKey, String text, String why, boolean hideValue, Throwable cause) {
    String shown = secret || hideValue ? givenKey : givenKey + "='" + text + "'";
    return new IllegalArgumentException(shown + " " + why, cause);
  }

  /** {@code value} written as this setting reads it, e.g. {@code 10m}. */
  public String formatted(T value) {
    return format.apply(value);
  }

  @Override
  public String toString() {
    return key;
  }

  /** A limit on a parsed value: empty when it holds, else why not ("must be at least 1"). */
  @FunctionalInterface
  public interface Bound<T> {
    Optional<String> check(T value);
  }

  /** Builds a {@link Setting}. */
  public static final class Builder<T> {
    private final String key;
    private final List<String> otherNames = new ArrayList<>();
    private final ValueParser<T> parser;
    private Optional<T> defaultValue = Optional.empty();
    private String documentedDefault;
    private final List<Bound<T>> bounds = new ArrayList<>();
    private Function<T, String> format = String::valueOf;
    private boolean secret;
    private String doc = "";

    private Builder(String key, ValueParser<T> parser) {
      this.key = requireNonNull(key, "key is null");
      this.parser = requireNonNull(parser, "parser is null");
      if (key.isBlank() || !key.equals(key.strip())) {
        throw new IllegalArgumentException("invalid setting key '" + key + "'");
      }
    }

    /** How values are written back in messages and the settings table. */
    public Builder<T> formattedWith(Function<T, String> format) {
      this.format = requireNonNull(format, "format is null");
      return this;
    }

    /** The value when the key is unset; documented as the formatter writes it back. */
    public Builder<T> defaultValue(T value) {
      this.defaultValue = Optional.of(requireNonNull(value, "value is null"));
      return this;
    }

    /** What the settings table says when the key is unset and there is no plain default. */
    public Builder<T> documentedDefault(String text) {
      this.documentedDefault = requireNonNull(text, "text is null");
      return this;
    }

    public Builder<T> bound(Bound<T> bound) {
      bounds.add(requireNonNull(bound, "bound is null"));
      return this;
    }

    /** Never shown: messages name the key only, and {@link Setting#secret()} says so. */
    public Builder<T> secret() {
      this.secret = true;
      return this;
    }

    /**
     * Other keys that set the same value, read when the key itself is not given: a setting Hudi
     * renamed between versions, read by either name.
     */
    public Builder<T> alsoNamed(String... names) {
      otherNames.addAll(List.of(names));
      return this;
    }

    public Builder<T> doc(String doc) {
      this.doc = requireNonNull(doc, "doc is null");
      return this;
    }

    public Setting<T> build() {
      if (documentedDefault == null) {
        documentedDefault = defaultValue.map(format).orElse("none");
      }
      return new Setting<>(this);
    }

    /** At least {@code min}. */
    @SuppressWarnings("unchecked")
    public Builder<T> atLeast(T min) {
      String shown = format.apply(min);
      return bound(
          v ->
              ((Comparable<T>) v).compareTo(min) < 0
                  ? Optional.of("must be at least " + shown)
                  : Optional.empty());
    }

    /** From {@code min} to {@code max}, both included. */
    @SuppressWarnings("unchecked")
    public Builder<T> between(T min, T max) {
      String range = "must be from " + format.apply(min) + " to " + format.apply(max);
      return bound(
          v ->
              ((Comparable<T>) v).compareTo(min) < 0 || ((Comparable<T>) v).compareTo(max) > 0
                  ? Optional.of(range)
                  : Optional.empty());
    }
  }
}
