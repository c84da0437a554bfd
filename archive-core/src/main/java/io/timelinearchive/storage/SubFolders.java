package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The sub-folders of one folder of an object store, gathered from the common prefixes of delimiter
 * listings (or folder marker objects), for {@link MetaStorage#listFolders}: each named once, in
 * UTF-8 order whatever order the pages came in, and names no location can hold ({@code a//b}'s
 * empty one, {@code .}, {@code ..}) left out.
 */
public final class SubFolders {
  private final StorageLocation folder;
  private final String prefix;
  private final SortedSet<String> names = new TreeSet<>(Utf8Order.COMPARATOR);

  public SubFolders(StorageLocation folder) {
    this.folder = requireNonNull(folder, "folder is null");
    this.prefix = keyPrefix(folder);
  }

  /** The key prefix of the folder's children: its path and {@code /}, or nothing at a root. */
  public static String keyPrefix(StorageLocation folder) {
    return folder.path().isEmpty() ? "" : folder.path() + "/";
  }

  /** Adds the sub-folder a common prefix such as {@code folder/child/} names. */
  public void addPrefix(String commonPrefix) {
    if (commonPrefix != null && commonPrefix.endsWith("/")) {
      addKey(commonPrefix.substring(0, commonPrefix.length() - 1));
    }
  }

  /** Adds the sub-folder a marker object's key such as {@code folder/child} names. */
  public void addKey(String key) {
    if (key == null || !key.startsWith(prefix)) {
      return;
    }
    String name = key.substring(prefix.length());
    if (!name.isEmpty() && !name.contains("/") && !name.equals(".") && !name.equals("..")) {
      names.add(name);
    }
  }

  public List<StorageLocation> sorted() {
    return names.stream().map(folder::resolve).toList();
  }
}
