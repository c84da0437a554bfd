package io.timelinearchive.storage;

import io.timelinearchive.config.SettingNamespace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/** Finds the {@link MetaStorageFactory} for a location's scheme through {@link ServiceLoader}. */
public final class MetaStorages {
  private static final Map<String, String> MODULE_BY_SCHEME =
      Map.of(
          "hdfs", "storage-hdfs",
          "viewfs", "storage-hdfs",
          "s3", "storage-s3",
          "s3a", "storage-s3",
          "gs", "storage-gcs",
          "abfs", "storage-azure",
          "abfss", "storage-azure",
          "wasb", "storage-azure",
          "wasbs", "storage-azure");

  /**
   * Schemes that open but that an error does not offer a user: the in-memory volumes the tests and
   * the benchmark use, which hold nothing once the JVM ends.
   */
  private static final Set<String> UNLISTED_SCHEMES = Set.of("memory");

  private MetaStorages() {}

  /**
   * Opens the storage for {@code root}'s scheme.
   *
   * @param root the folder the storage serves
   * @param config every setting; the backend reads its own prefixed keys
   * @return the storage; the caller closes it
   * @throws IOException if the store cannot be reached or set up
   * @throws IllegalArgumentException if no backend on the class path serves the scheme
   */
  public static MetaStorage open(StorageLocation root, Map<String, String> config)
      throws IOException {
    return factoryFor(root.scheme(), config, MetaStorages.class.getClassLoader())
        .open(root, config);
  }

  /**
   * The factory serving {@code scheme} among those visible to {@code loader}.
   *
   * @param scheme a location's scheme, in any case
   * @param loader where to look for factories
   * @return the factory
   * @throws IllegalArgumentException if none serves it (naming the known schemes and the module
   *     that would add it) or if two do (naming both classes)
   */
  public static MetaStorageFactory factoryFor(String scheme, ClassLoader loader) {
    return factoryFor(scheme, Map.of(), loader);
  }

  /**
   * As {@link #factoryFor(String, ClassLoader)}, with the schemes settings route to factories.
   *
   * @param scheme a location's scheme, in any case
   * @param config the settings that may route schemes (e.g. {@code hadoop.schemes})
   * @param loader where to look for factories
   * @return the factory
   */
  public static MetaStorageFactory factoryFor(
      String scheme, Map<String, String> config, ClassLoader loader) {
    Map<String, MetaStorageFactory> factories = discover(config, loader);
    String lowerCase = scheme.toLowerCase(Locale.ROOT);
    MetaStorageFactory factory = factories.get(lowerCase);
    if (factory == null) {
      String module = MODULE_BY_SCHEME.get(lowerCase);
      throw new IllegalArgumentException(
          "no storage for scheme '"
              + scheme
              + "'; known schemes: "
              + String.join(
                  ", ",
                  factories.keySet().stream().filter(s -> !UNLISTED_SCHEMES.contains(s)).toList())
              + (module == null
                  ? ""
                  : "; add the module io.timelinearchive:" + module + " to the classpath"));
    }
    return factory;
  }

  /**
   * Every factory visible to {@code loader}, by scheme.
   *
   * @param loader where to look for factories
   * @return the factories by scheme, sorted
   * @throws IllegalArgumentException if two factories claim one scheme
   */
  public static Map<String, MetaStorageFactory> discover(ClassLoader loader) {
    return discover(Map.of(), loader);
  }

  /**
   * The setting namespaces of every factory visible to {@code loader}.
   *
   * @param loader where to look for factories
   * @return each factory's namespaces, once each
   */
  public static List<SettingNamespace> settingNamespaces(ClassLoader loader) {
    Map<MetaStorageFactory, Boolean> seen = new IdentityHashMap<>();
    List<SettingNamespace> namespaces = new ArrayList<>();
    for (MetaStorageFactory factory : discover(Map.of(), loader).values()) {
      if (seen.put(factory, true) == null) {
        namespaces.addAll(factory.settingNamespaces());
      }
    }
    return namespaces;
  }

  private static Map<String, MetaStorageFactory> discover(
      Map<String, String> config, ClassLoader loader) {
    Map<String, MetaStorageFactory> byScheme = new TreeMap<>();
    for (MetaStorageFactory factory : ServiceLoader.load(MetaStorageFactory.class, loader)) {
      for (String scheme : factory.schemes(config)) {
        MetaStorageFactory previous = byScheme.putIfAbsent(scheme, factory);
        if (previous != null && previous.getClass() != factory.getClass()) {
          throw new IllegalArgumentException(
              "two storage factories claim scheme '"
                  + scheme
                  + "': "
                  + previous.getClass().getName()
                  + " and "
                  + factory.getClass().getName()
                  + "; remove one of them from the classpath");
        }
      }
    }
    return byScheme;
  }
}
