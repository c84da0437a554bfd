package io.timelinearchive.storage.gcs;

import com.google.api.gax.paging.Page;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobField;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.SubFolders;
import java.io.IOException;
import java.util.List;

/**
 * The sub-folders of one folder: the prefixes of a listing with delimiter {@code /} ({@code
 * currentDirectory}), page by page; the client hands each prefix over as a blob that {@code
 * isDirectory}. The service rolls every object below a sub-folder into its one prefix.
 */
final class GcsFolderListing {
  private GcsFolderListing() {}

  static List<StorageLocation> list(
      Storage storage, String bucket, StorageLocation folder, int pageSize) throws IOException {
    String prefix = SubFolders.keyPrefix(folder);
    SubFolders folders = new SubFolders(folder);
    try {
      Page<Blob> page =
          storage.list(
              bucket,
              BlobListOption.prefix(prefix),
              BlobListOption.currentDirectory(),
              BlobListOption.pageSize(pageSize),
              BlobListOption.fields(BlobField.NAME));
      while (page != null) {
        for (Blob blob : page.getValues()) {
          if (blob.isDirectory()) {
            folders.addPrefix(blob.getName());
          }
        }
        page = page.hasNextPage() ? page.getNextPage() : null;
      }
    } catch (StorageException e) {
      throw GcsErrors.translate(e, "list the folders of " + folder, folder, true);
    }
    return folders.sorted();
  }
}
