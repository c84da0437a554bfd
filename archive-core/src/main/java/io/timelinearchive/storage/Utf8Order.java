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
    int common = Math.min(a.length(), b.length());
    int k = 0;
    while (k < common && a.charAt(k) == b.charAt(k)) {
      k++;
    }
    if (k == common) {
      return Integer.compare(a.length(), b.length());
    }
    char ca = a.charAt(k);
    char cb = b.charAt(k);
    if (Character.isSurrogate(ca) || Character.isSurrogate(cb)) {
      return byCodePoints(a, b); // rare: names beyond U+FFFF
    }
    return Integer.compare(ca, cb);
  }

  private static int byCodePoints(String a, String b) {
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
