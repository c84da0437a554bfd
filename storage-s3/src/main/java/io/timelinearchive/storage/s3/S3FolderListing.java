package io.timelinearchive.storage.s3;

import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.SubFolders;
import java.io.IOException;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * The sub-folders of one folder: the common prefixes of a {@code ListObjectsV2} listing with
 * delimiter {@code /}, page by page. S3 rolls every key below a sub-folder into its one prefix, so
 * the files below are never listed.
 */
final class S3FolderListing {
  private S3FolderListing() {}

  static List<StorageLocation> list(
      S3Client client, String bucket, int pageSize, StorageLocation folder) throws IOException {
    String prefix = SubFolders.keyPrefix(folder);
    SubFolders folders = new SubFolders(folder);
    String continuation = null;
    boolean lastPage = false;
    while (!lastPage) {
      ListObjectsV2Response response;
      String token = continuation;
      try {
        // encoding-type=url, as for files: the SDK decodes the common prefixes too.
        response =
            client.listObjectsV2(
                b ->
                    b.bucket(bucket)
                        .prefix(prefix)
                        .delimiter("/")
                        .encodingType(EncodingType.URL)
                        .maxKeys(pageSize)
                        .continuationToken(token));
      } catch (SdkException e) {
        throw S3Errors.failure("list the folders of", folder, e);
      }
      response.commonPrefixes().forEach(common -> folders.addPrefix(common.prefix()));
      continuation = response.nextContinuationToken();
      lastPage = !Boolean.TRUE.equals(response.isTruncated()) || continuation == null;
    }
    // S3 sends prefixes in UTF-8 order; emulators do not all (see the contract test of S3Proxy).
    return folders.sorted();
  }
}
