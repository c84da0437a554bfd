package io.timelinearchive.config;

import static java.util.Objects.requireNonNull;

/**
 * Reads a setting's value from the text a user wrote (trimmed, never blank).
 *
 * @param <T> the type of the value
 */
@FunctionalInterface
public interface ValueParser<T> {

  /**
   * @throws InvalidValueException saying what is wrong, e.g. {@code is not a whole number}; the
   *     {@link Setting} puts the key and the value in front of it
   */
  T parse(String text) throws InvalidValueException;

  /** A value that does not parse; {@link #why()} completes "KEY='VALUE' …". */
  final class InvalidValueException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean hidesValue;

    public InvalidValueException(String why) {
      this(why, false, null);
    }

    /**
     * @param hidesValue whether the message must not echo the value (it may hold a password, as a
     *     URL with user info does)
     */
    public InvalidValueException(String why, boolean hidesValue, Throwable cause) {
      super(requireNonNull(why, "why is null"), cause, false, false);
      this.hidesValue = hidesValue;
    }

    public String why() {
      return getMessage();
    }

    public boolean hidesValue() {
      return hidesValue;
    }
  }
}
