package io.timelinearchive.storage;

import io.timelinearchive.config.SettingNamespace;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Opens {@link MetaStorage}s for some URI schemes. Registered in {@code
 * META-INF/services/io.timelinearchive.storage.MetaStorageFactory} and found by {@link
 * MetaStorages}.
 */
public interface MetaStorageFactory {
  /**
   * The lower-case schemes this factory serves, for example {@code s3} and {@code s3a}.
   *
   * @return the schemes, never empty
   */
  Set<String> schemes();

  /**
   * The schemes this factory serves under {@code config}: those of {@link #schemes()} plus any a
   * user routes to it by a setting (for example {@code hadoop.schemes=ofs} for Hadoop).
   *
   * @param config every setting given to the archiver
   * @return the schemes, at least those of {@link #schemes()}
   */
  default Set<String> schemes(Map<String, String> config) {
    return schemes();
  }

  /**
   * The settings this backend reads, by key prefix ({@code s3.}, …), so that a misspelt key fails
   * instead of leaving a default in force; empty for a backend without settings.
   *
   * @return the namespaces of this backend's settings
   */
  default List<SettingNamespace> settingNamespaces() {
    return List.of();
  }

  /**
   * Opens a storage for locations below {@code root}.
   *
   * @param root the folder, of one of this factory's schemes, that the storage serves
   * @return the storage; the caller closes it
   * @throws IOException if the store cannot be reached or set up
   * @param config every setting given to the archiver; a backend reads its own prefixed keys (for
   *     example {@code s3.endpoint}), ignores others, and never logs values
   * @throws IllegalArgumentException naming the key when a setting is invalid
   */
  MetaStorage open(StorageLocation root, Map<String, String> config) throws IOException;
}
