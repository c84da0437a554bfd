package io.timelinearchive.select;

import java.util.Arrays;

/** A growable list of group indexes, ascending; boxed lists cost too much at 10^6 instants. */
final class Ints {
  int[] values;
  private int size;

  Ints() {
    this.values = new int[16];
  }

  Ints(int[] values) {
    this.values = values;
    this.size = values.length;
  }

  void add(int value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  int get(int index) {
    return values[index];
  }

  int size() {
    return size;
  }

  void truncate(int newSize) {
    size = newSize;
  }

  /** How many of these (ascending) come before group {@code group}. */
  int countBelow(int group) {
    int low = 0;
    int high = size;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (values[mid] < group) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
