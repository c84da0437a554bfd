package io.timelinearchive.storage.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.PagedResponseBase;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobItemProperties;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.Utf8Order;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The reordering of the service's UTF-16 listing into UTF-8 order, on hand-made pages. */
class TestAzureListing {
  private static final StorageLocation FOLDER =
      StorageLocation.of("abfs://data@acct.dfs.core.windows.net/t/.hoodie");
  private static final Comparator<String> UTF16 = Comparator.naturalOrder();
  private static final Comparator<String> UTF8 =
      (a, b) -> Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8));

  @Test
  void utf8OrderIsUtf8ByteOrder() {
    Random random = new Random(1);
    for (int i = 0; i < 10_000; i++) {
      String a = randomName(random);
      String b = randomName(random);
      assertThat(Integer.signum(Utf8Order.compare(a, b)))
          .as("%s vs %s", a, b)
          .isEqualTo(Integer.signum(UTF8.compare(a, b)));
    }
  }

  @Test
  void listingInUtf16OrderComesOutInUtf8Order() throws Exception {
    Random random = new Random(2);
    for (int round = 0; round < 200; round++) {
      List<String> names = new ArrayList<>();
      for (int i = random.nextInt(40); i > 0; i--) {
        String name = randomName(random);
        if (!names.contains(name)) {
          names.add(name);
        }
      }
      names.sort(UTF16);

      assertThat(list(names, 1 + random.nextInt(7)))
          .as("names %s", names)
          .containsExactlyElementsOf(names.stream().sorted(UTF8).toList());
    }
  }

  @Test
  void listingAlreadyInUtf8OrderPassesThrough() throws Exception {
    List<String> names =
        new ArrayList<>(List.of("e", "z", "\u00e9", "\uFF21", "\uD83D\uDE00", "x"));
    names.sort(UTF8);

    assertThat(list(names, 2)).containsExactlyElementsOf(names);
  }

  private static List<String> list(List<String> names, int pageSize) throws Exception {
    List<PagedResponse<BlobItem>> pages = new ArrayList<>();
    for (int start = 0; start < names.size(); start += pageSize) {
      List<BlobItem> items = new ArrayList<>();
      for (String name : names.subList(start, Math.min(names.size(), start + pageSize))) {
        items.add(
            new BlobItem()
                .setName(FOLDER.path() + "/" + name)
                .setIsPrefix(false)
                .setProperties(
                    new BlobItemProperties()
                        .setContentLength(1L)
                        .setLastModified(OffsetDateTime.now())));
      }
      pages.add(new PagedResponseBase<Void, BlobItem>(null, 200, null, items, null, null));
    }
    Iterator<PagedResponse<BlobItem>> iterator = pages.iterator();
    AzureListing listing = new AzureListing(FOLDER, FOLDER.path() + "/", iterator);
    return listing.toList().stream().map(FileEntry::name).toList();
  }

  /** Short names drawn from ASCII, U+E000..U+FFFF and supplementary characters. */
  private static String randomName(Random random) {
    String[] alphabet = {"a", "b", "\uE000", "\uFF21", "\uD83D\uDE00", "\uD800\uDC00", "\u00e9"};
    StringBuilder name = new StringBuilder();
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      name.append(alphabet[random.nextInt(alphabet.length)]);
    }
    return name.toString();
  }
}
