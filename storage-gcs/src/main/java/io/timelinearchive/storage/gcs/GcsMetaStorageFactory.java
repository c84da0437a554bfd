package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.HttpStorageOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code gs} scheme: {@code gs://bucket/path}, on the Cloud Storage JSON API. Settings are read
 * from the {@code gcs.} keys (see {@link GcsConfig}); credentials are Application Default
 * Credentials unless {@code gcs.credentials-file} or {@code gcs.no-credentials=true} is given.
 */
public final class GcsMetaStorageFactory implements MetaStorageFactory {
  public static final String SCHEME = "gs";

  // Anonymous requests bill no project; naming one keeps the SDK from probing the environment
  // (gcloud files, the metadata server) for a project it would never use.
  private static final String ANONYMOUS_PROJECT = "anonymous";

  @Override
  public Set<String> schemes() {
    return Set.of(SCHEME);
  }

  @Override
  public List<SettingNamespace> settingNamespaces() {
    return List.of(GcsConfig.NAMESPACE);
  }

  @Override
  public MetaStorage open(StorageLocation root, Map<String, String> config) throws IOException {
    requireNonNull(root, "root is null");
    requireNonNull(config, "config is null");
    if (!root.scheme().equals(SCHEME)) {
      throw new IllegalArgumentException("not a " + SCHEME + " location: " + root);
    }
    if (root.authority().isEmpty()) {
      throw new IllegalArgumentException("no bucket in " + root + ": expected gs://bucket/path");
    }
    GcsConfig gcs = GcsConfig.from(config);
    GcsRequestCounter requests = new GcsRequestCounter();
    StorageOptions options = options(gcs, requests);
    Storage storage = options.getService();
    Storage singleAttempt;
    try {
      singleAttempt =
          options.toBuilder()
              .setRetrySettings(options.getRetrySettings().toBuilder().setMaxAttempts(1).build())
              .build()
              .getService();
    } catch (RuntimeException e) {
      closeQuietly(storage, e);
      throw e;
    }
    return new GcsMetaStorage(root.authority(), storage, singleAttempt, gcs, requests);
  }

  private static StorageOptions options(GcsConfig gcs, GcsRequestCounter requests)
      throws IOException {
    HttpStorageOptions.Builder builder = StorageOptions.http();
    builder.setTransportOptions(
        HttpTransportOptions.newBuilder()
            .setHttpTransportFactory(() -> requests)
            .setConnectTimeout((int) gcs.connectTimeout().toMillis())
            .setReadTimeout((int) gcs.readTimeout().toMillis())
            .build());
    gcs.endpoint().ifPresent(endpoint -> builder.setHost(endpoint.toString()));
    if (gcs.noCredentials()) {
      builder.setCredentials(NoCredentials.getInstance());
      builder.setProjectId(gcs.projectId().orElse(ANONYMOUS_PROJECT));
    } else {
      gcs.projectId().ifPresent(builder::setProjectId);
      if (gcs.credentialsFile().isPresent()) {
        // The file is the user's own configuration: any credential type it declares (service
        // account, external account, authorized user) is what they asked for.
        try (InputStream in = Files.newInputStream(gcs.credentialsFile().get())) {
          builder.setCredentials(GoogleCredentials.fromStream(in));
        } catch (IOException e) {
          throw new IOException(
              "cannot load credentials from "
                  + GcsConfig.CREDENTIALS_FILE.key()
                  + " "
                  + gcs.credentialsFile().get()
                  + ": "
                  + e.getClass().getSimpleName(),
              null);
        }
      }
    }
    builder.setRetrySettings(
        StorageOptions.getDefaultRetrySettings().toBuilder()
            .setMaxAttempts(gcs.retries() + 1)
            .build());
    return builder.build();
  }

  private static void closeQuietly(Storage storage, Exception failure) {
    try {
      storage.close();
    } catch (Exception e) {
      failure.addSuppressed(e);
    }
  }
}
