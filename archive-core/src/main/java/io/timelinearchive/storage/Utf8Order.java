package io.timelinearchive.storage;

import java.util.Comparator;

/**
 * Orders names as their UTF-8 bytes compare, the order {@link MetaStorage#list} promises and object
 * stores list in. {@link String#compareTo} compares UTF-16 units and so puts a character beyond
 * U+FFFF (a surrogate pair) before U+E000..U+FFFF; comparing code points gives the UTF-8 byte
 * order, without encoding either name.
 */
public final class Utf8Order {
  /** {@link #compare} as a comparator. */
  public static final Comparator<String> COMPARATOR = Utf8Order::compare;

  private Utf8Order() {}

  /**
   * Negative, zero or positive as {@code a}'s UTF-8 bytes sort before, with or after {@code b}'s.
   */
  public static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
