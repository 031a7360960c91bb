// SPDX-License-Identifier: MIT
// .npy and .npz reading (io/numpy_file.h) and the batches made of them and of .tsp folders
// (io/batch_input.h): every dtype and header version, NumPy's own archives (stored and deflated),
// and a one-line InputError for each way a file can be broken.
#include "io/numpy_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include "core/error.h"
#include "io/batch_input.h"
#include "io/generator.h"
#include "io/tsplib.h"
#include "numpy_writer.h"
#include "test_support.h"

namespace formica::io {
namespace {

namespace fs = std::filesystem;
using test::input_error_of;
using test::npy_bytes;
using test::zip_stored;

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("formica_numpy_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(NumpyFile, ReadsEveryDtypeAndHeaderVersion) {
  const std::vector<double> values = {0.5, 1, 2, 3, 4, 5.25, 6, 7, 8, 9, 10, 11};
  for (int version : {1, 2, 3}) {
    const NumpyArray a = parse_npy(test::npy_bytes<double>(values, "(2, 3, 2)", "<f8", version), "a.npy");
    EXPECT_EQ(a.shape, (std::vector<size_t>{2, 3, 2}));
    EXPECT_EQ(a.values, values);
  }
  const std::vector<float> floats(values.begin(), values.end());
  EXPECT_EQ(parse_npy(npy_bytes<float>(floats, "(12,)", "<f4"), "f").values, values);
  const std::vector<int32_t> ints = {-3, 0, 7, 2147483647};
  EXPECT_EQ(parse_npy(npy_bytes<int32_t>(ints, "(2, 2)", "<i4"), "i").values,
            (std::vector<double>{-3, 0, 7, 2147483647.0}));
  const std::vector<int64_t> longs = {-1, 5, 1LL << 40};
  EXPECT_EQ(parse_npy(npy_bytes<int64_t>(longs, "(3,)", "<i8"), "l").values,
            (std::vector<double>{-1, 5, static_cast<double>(1LL << 40)}));
  const NumpyArray empty = parse_npy(npy_bytes({}, "(0, 2)"), "e");
  EXPECT_EQ(empty.shape, (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(empty.values.empty());
  EXPECT_EQ(shape_text({5}), "(5,)");
  EXPECT_EQ(shape_text({}), "()");
}

TEST(NumpyFile, ReadsNumpysOwnArchivesStoredAndDeflated) {
  const std::vector<double> first = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81},
                            second = {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33};
  std::vector<std::string> files = {"arrays_stored.npz"};
  if (reads_compressed_npz()) files.push_back("arrays_compressed.npz");
  for (const std::string& file : files) {
    const std::vector<NumpyArray> arrays = read_npz(test::data_file(file));
    ASSERT_EQ(arrays.size(), 2u) << file;
    EXPECT_EQ(arrays[0].name, "first");
    EXPECT_EQ(arrays[0].shape, (std::vector<size_t>{5, 2}));
    EXPECT_EQ(arrays[0].values, first);
    EXPECT_EQ(arrays[1].name, "second");
    EXPECT_EQ(arrays[1].values, second);
  }
  if (!reads_compressed_npz()) {
    const std::string message = input_error_of([] { read_npz(test::data_file("arrays_compressed.npz")); });
    EXPECT_NE(message.find("save with np.savez instead, or install zlib"), std::string::npos) << message;
    return;
  }
  // A member that claims more than its deflated bytes can expand to is refused before allocating.
  std::string bomb = read_text_file(test::data_file("arrays_compressed.npz"));
  const size_t central = bomb.find("PK\x01\x02");
  ASSERT_NE(central, std::string::npos);
  bomb.replace(central + 24, 4, "\xfe\xff\xff\x7f");
  const std::string message = input_error_of([&] { parse_npz(bomb, "c.npz"); });
  EXPECT_EQ(message.rfind("c.npz: member 'first.npy': declares 2147483646 bytes, more than ", 0), 0u) << message;
}

TEST(NumpyFile, ArchivesKeepTheirOrderAndSkipOtherFiles) {
  const std::string zip = zip_stored({{"z.npy", npy_bytes({1, 2, 3, 4, 5, 6}, "(3, 2)")},
                                      {"readme.txt", "not an array"},
                                      {"a.npy", npy_bytes({7, 8, 9, 10, 11, 12}, "(3, 2)")}});
  const std::vector<NumpyArray> arrays = parse_npz(zip, "x.npz");
  ASSERT_EQ(arrays.size(), 2u);
  EXPECT_EQ(arrays[0].name, "z");
  EXPECT_EQ(arrays[1].name, "a");
  EXPECT_EQ(arrays[1].values[5], 12);
}

struct Broken {
  std::string bytes, message;
};

TEST(NumpyFile, BrokenNpyFilesGetOneClearLine) {
  const std::string good = npy_bytes({1, 2, 3, 4, 5, 6}, "(3, 2)");
  std::string version4 = good, long_header = good;
  version4[6] = 4;
  long_header[8] = '\xff', long_header[9] = '\x7f';
  const Broken cases[] = {
      {"", "f.npy: not an .npy file (no \\x93NUMPY magic)"},
      {"PK\x03\x04 something else", "f.npy: not an .npy file (no \\x93NUMPY magic)"},
      {version4, "f.npy: .npy format version 4 is not supported (1 to 3 are)"},
      {long_header, "f.npy: .npy header of 32767 bytes runs past the end of the file"},
      {good.substr(0, good.size() - 1), "f.npy: shape (3, 2) declares 6 values (48 bytes) but the file holds 47 bytes of data"},
      {good + "x", "f.npy: shape (3, 2) declares 6 values (48 bytes) but the file holds 49 bytes of data"},
      {npy_bytes({}, "(99999999999999, 99999999999999, 2)"),
       "f.npy: shape (99999999999999, 99999999999999, 2) declares more values than memory holds but the file "
       "holds 0 bytes of data"},
      {npy_bytes<double>({1, 2}, "(2,)", ">f8"),
       "f.npy: dtype '>f8' is not supported (little-endian float64, float32, int32 or int64 are)"},
      {npy_bytes<double>({1, 2}, "(2,)", "<c8"),
       "f.npy: dtype '<c8' is not supported (little-endian float64, float32, int32 or int64 are)"},
      {npy_bytes({1, 2}, "(2, -1)"), "f.npy: malformed .npy header: the shape holds something other than non-negative integers"},
      {npy_bytes({1, 2}, "[2]"), "f.npy: malformed .npy header: expected '('"},
  };
  for (const Broken& c : cases) EXPECT_EQ(input_error_of([&] { parse_npy(c.bytes, "f.npy"); }), c.message);

  const auto with_header = [](const std::string& header) {
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(header.size()), out += '\0';
    return out + header;
  };
  EXPECT_EQ(input_error_of([&] { parse_npy(with_header("{'descr': '<f8', 'shape': (0,), }"), "f"); }),
            "f: malformed .npy header: 'descr', 'fortran_order' and 'shape' are required");
  EXPECT_EQ(input_error_of([&] { parse_npy(with_header("{'descr': '<f8', 'fortran_order': 0, 'shape': (0,)}"), "f"); }),
            "f: malformed .npy header: fortran_order is neither True nor False");
  EXPECT_EQ(input_error_of([&] { parse_npy(with_header("{'descr': '<f8', 'colour': 'red'}"), "f"); }),
            "f: malformed .npy header: unexpected key 'colour'");
  EXPECT_EQ(input_error_of([&] { parse_npy(with_header("{'descr': '<f8"), "f"); }), "f: malformed .npy header: unterminated string");
  EXPECT_EQ(input_error_of([&] { parse_npy(with_header("{'descr': '<f8', 'fortran_order': True, 'shape': (0,), }"), "f"); }),
            "f: Fortran-ordered arrays are not supported (save np.ascontiguousarray(a))");
  EXPECT_EQ(input_error_of([&] { parse_npy(with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (), } x"), "f"); }),
            "f: malformed .npy header: text after the closing '}'");
}

TEST(NumpyFile, BrokenArchivesGetOneClearLine) {
  const std::string member = npy_bytes({1, 2, 3, 4, 5, 6}, "(3, 2)");
  const std::string good = zip_stored({{"a.npy", member}});
  std::string bad_crc = good, bad_method = good, bad_count = good, bad_offset = good;
  bad_crc[14] ^= 1;                                   // the local header's CRC is not read...
  bad_crc[good.find("PK\x01\x02") + 16] ^= 1;         // ...the central directory's is
  bad_method[good.find("PK\x01\x02") + 10] = 12;      // bzip2
  bad_count[good.size() - 12] = '\x50';               // 80 entries in a file of a few hundred bytes
  bad_offset[good.size() - 4] = '\x70';               // the central directory far past the end
  const Broken cases[] = {
      {member, "x.npz: not a zip archive (an .npz file is one, as np.savez writes it)"},
      {"", "x.npz: not a zip archive (an .npz file is one, as np.savez writes it)"},
      {bad_crc, "x.npz: member 'a.npy': CRC mismatch (the file is corrupt)"},
      {bad_method,
       "x.npz: member 'a.npy': compression method 12 is not supported (np.savez stores, np.savez_compressed deflates)"},
      {bad_count, "x.npz: not a valid .npz (zip) file: impossible member count"},
      {bad_offset, "x.npz: not a valid .npz (zip) file: central directory runs past the end"},
      {zip_stored({{"a.npy", member.substr(0, 20)}}), "x.npz: member 'a.npy': .npy header of 118 bytes runs past the end of the file"},
      {zip_stored({{"notes.txt", "hello"}}), "x.npz: the archive holds no .npy array"},
  };
  for (const Broken& c : cases) EXPECT_EQ(input_error_of([&] { parse_npz(c.bytes, "x.npz"); }), c.message);
}

// Keys, dtypes and member names are bytes from the file: a control character among them is shown
// as \xNN, so the message stays one line. tests/data/npy_key_with_control_characters.npy is
// fuzz_numpy's finding (the key 'PK\x06\x06descr', after 75 executions).
TEST(NumpyFile, BytesFromTheFileAreQuotedOnOneLine) {
  const fs::path file = test::data_file("npy_key_with_control_characters.npy");
  EXPECT_EQ(input_error_of([&] { read_npy(file); }),
            file.string() + ": malformed .npy header: unexpected key 'PK\\x06\\x06descr'");
  EXPECT_EQ(input_error_of([] { parse_npy(npy_bytes<double>({1, 2}, "(2,)", "<f\n8"), "f.npy"); }),
            "f.npy: dtype '<f\\x0a8' is not supported (little-endian float64, float32, int32 or int64 are)");
  EXPECT_EQ(input_error_of([] { parse_npz(zip_stored({{"a\r\nb\x7f.npy", "text"}}), "x.npz"); }),
            "x.npz: member 'a\\x0d\\x0ab\\x7f.npy': not an .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(input_error_of([] { batch_from_arrays({NumpyArray{"a\tb", {3}, std::vector<double>(3)}}, "j.npz"); }),
            "j.npz: instance 0: array 'a\\x09b' has shape (3,); a batch is a (B, n, 2) array of coordinates, or one "
            "(n, 2) array per instance");
  EXPECT_EQ(printable("caf\xc3\xa9 \x01"), "caf\xc3\xa9 \\x01");  // UTF-8 stays as it is
}

TEST(BatchInput, ArraysBecomeNamedInstances) {
  std::vector<double> xy;
  for (int i = 0; i < 3 * 4 * 2; ++i) xy.push_back(i * 7 % 11);
  BatchInput stacked = batch_from_arrays({NumpyArray{"", {3, 4, 2}, xy}}, "b.npy");
  ASSERT_EQ(stacked.instances.size(), 3u);
  EXPECT_EQ(stacked.names, (std::vector<std::string>{"batch-00000", "batch-00001", "batch-00002"}));
  EXPECT_EQ(stacked.instances[2].name(), "batch-00002");
  EXPECT_EQ(stacked.instances[1].n(), 4);
  EXPECT_EQ(stacked.instances[1].x()[0], xy[8]);
  EXPECT_EQ(stacked.instances[1].y()[3], xy[15]);

  const BatchInput jagged = batch_from_arrays(
      {NumpyArray{"small", {3, 2}, {0, 0, 1, 0, 0, 1}}, NumpyArray{"big", {4, 2}, {0, 0, 3, 0, 3, 4, 0, 4}}}, "j.npz");
  EXPECT_EQ(jagged.names, (std::vector<std::string>{"small", "big"}));
  EXPECT_EQ(jagged.instances[1].distance(0, 2), 5);
  // A stacked member beside others is named by its key.
  const BatchInput mixed = batch_from_arrays({NumpyArray{"one", {3, 2}, {0, 0, 1, 0, 0, 1}}, NumpyArray{"s", {2, 3, 2}, std::vector<double>(12, 1.0)}}, "m.npz");
  EXPECT_EQ(mixed.names, (std::vector<std::string>{"one", "s-00000", "s-00001"}));
}

TEST(BatchInput, BadInstancesNameTheFileAndTheIndex) {
  std::vector<double> xy(2 * 5 * 2, 1.0);
  xy[5 * 2 + 3 * 2 + 1] = std::nan("");
  EXPECT_EQ(input_error_of([&] { batch_from_arrays({NumpyArray{"", {2, 5, 2}, xy}}, "b.npy"); }),
            "b.npy: instance 1 (batch-00001): city 4 has a non-finite y coordinate");
  EXPECT_EQ(input_error_of([] { batch_from_arrays({NumpyArray{"", {4, 2, 2}, std::vector<double>(16)}}, "b.npy"); }),
            "b.npy: instance 0 (batch-00000): an instance needs at least 3 cities, got 2");
  EXPECT_EQ(input_error_of([] { batch_from_arrays({NumpyArray{"", {2, 5, 3}, std::vector<double>(30)}}, "b.npy"); }),
            "b.npy: instance 0: the array has shape (2, 5, 3); a batch is a (B, n, 2) array of coordinates");
  EXPECT_EQ(input_error_of([] { batch_from_arrays({NumpyArray{"", {5, 2}, std::vector<double>(10)}}, "b.npy"); }),
            "b.npy: instance 0: the array has shape (5, 2); a batch is a (B, n, 2) array of coordinates");
  EXPECT_EQ(input_error_of([] {
              batch_from_arrays({NumpyArray{"a", {3, 2}, std::vector<double>{0, 0, 1, 0, 0, 1}},
                                 NumpyArray{"b", {3}, std::vector<double>(3)}},
                                "j.npz");
            }),
            "j.npz: instance 1: array 'b' has shape (3,); a batch is a (B, n, 2) array of coordinates, or one (n, 2) "
            "array per instance");
  EXPECT_EQ(input_error_of([] { batch_from_arrays({NumpyArray{"", {0, 5, 2}, {}}}, "b.npy"); }), "b.npy: the batch holds no instance");
}

TEST(BatchInput, CoordinatesBeyondTheRangeAreRefusedBeforeAnyScaling) {
  // Float coordinates are scaled to fixed point: their range is checked on the user's values (as
  // Python's metric="float" does), so that 1e300 among them is an error and not a length of inf.
  std::vector<double> xy{0.5, 0.25, 1.5, 2.0, 3.0, 1.0e300, 2.5, 0.0};
  EXPECT_EQ(input_error_of([&] { batch_from_arrays({NumpyArray{"", {1, 4, 2}, xy}}, "b.npy"); }),
            "b.npy: instance 0 (batch-00000): city 3 has y coordinate 1e+300, beyond +-1e+150 (float coordinates: "
            "their squared distances must stay finite)");
  xy[5] = -1e150;  // the bound itself is in range: scaled as before
  const BatchInput edge = batch_from_arrays({NumpyArray{"", {1, 4, 2}, xy}}, "b.npy");
  ASSERT_TRUE(edge.scales[0].has_value());
  EXPECT_EQ(edge.instances[0].y()[2], -1e150 * *edge.scales[0]);
  // Whole coordinates get the instance's own check, as in formica solve.
  const std::vector<double> whole{0, 0, 1, 0, 6e8, 1};
  EXPECT_EQ(input_error_of([&] { batch_from_arrays({NumpyArray{"", {1, 3, 2}, whole}}, "b.npy"); }),
            "b.npy: instance 0 (batch-00000): city 3 has x coordinate 6e+08, beyond +-5e+08 (distances must fit in 32 bits)");
}

// An .npz key names its instance's .tour file in `solve-batch --out-dir`'s folder: before these
// checks, the key '../escaped' wrote escaped.tour beside that folder, '/tmp/x' wrote /tmp/x.tour,
// a newline in a key put a line of its own into the .tour file, and the key 'a-00001' beside a
// stacked array 'a' overwrote one of its tours. tests/data keeps the first and the last (CliBatch).
TEST(BatchInput, KeysThatCannotNameATourFileAreRefused) {
  const std::vector<double> three = {0, 0, 1, 0, 0, 1};
  const auto keyed = [&](const std::string& key) {
    return input_error_of([&] { batch_from_arrays({NumpyArray{"ok", {3, 2}, three}, NumpyArray{key, {3, 2}, three}}, "k.npz"); });
  };
  for (const std::string key : {"../escaped", "/tmp/absolute", "a\\b", "..", ".", "a\nNAME : injected"})
    EXPECT_EQ(keyed(key), "k.npz: instance 1: key '" + printable(key) +
                              "' is not a plain file name (an instance's key names its .tour file)");
  // A stacked array's key names its tours too, unless it is the only array (then "batch-00000"...).
  EXPECT_EQ(input_error_of([&] {
              batch_from_arrays({NumpyArray{"ok", {3, 2}, three}, NumpyArray{"../s", {1, 3, 2}, three}}, "k.npz");
            }),
            "k.npz: instance 1: key '../s' is not a plain file name (an instance's key names its .tour file)");
  EXPECT_EQ(batch_from_arrays({NumpyArray{"../s", {1, 3, 2}, three}}, "k.npz").names, std::vector<std::string>{"batch-00000"});
  EXPECT_EQ(input_error_of([&] {
              batch_from_arrays({NumpyArray{"a", {2, 3, 2}, std::vector<double>(12, 1.0)}, NumpyArray{"a-00001", {3, 2}, three}},
                                "k.npz");
            }),
            "k.npz: instance 2: the name 'a-00001' is taken by instance 1 (an instance's name is its .tour file's)");
  EXPECT_EQ(keyed("ok"), "k.npz: instance 1: the name 'ok' is taken by instance 0 (an instance's name is its .tour file's)");
  EXPECT_EQ(batch_from_arrays({NumpyArray{"caf\xc3\xa9", {3, 2}, three}}, "k.npz").names,
            std::vector<std::string>{"caf\xc3\xa9"});  // UTF-8 keys are names
}

TEST(BatchInput, FoldersFilesAndMistakes) {
  const fs::path dir = temp_dir("folder");
  write_tsplib(dir / "b.tsp", generate_instance(12, InstanceKind::Uniform, 2));
  write_tsplib(dir / "a.tsp", generate_instance(9, InstanceKind::Clustered, 3));
  test::write_bytes(dir / "notes.txt", "not an instance");
  const BatchInput folder = load_batch_input(dir);
  EXPECT_EQ(folder.names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(folder.instances[0].n(), 9);
  EXPECT_EQ(folder.instances[1].n(), 12);

  test::write_bytes(dir / "b.npy", npy_bytes(std::vector<double>(2 * 3 * 2, 0.0), "(2, 3, 2)"));
  EXPECT_EQ(load_batch_input(dir / "b.npy").instances.size(), 2u);
  test::write_bytes(dir / "j.npz", zip_stored({{"x.npy", npy_bytes({0, 0, 1, 0, 0, 1}, "(3, 2)")}}));
  EXPECT_EQ(load_batch_input(dir / "j.npz").names, std::vector<std::string>{"x"});

  EXPECT_EQ(input_error_of([&] { load_batch_input(dir / "notes.txt"); }),
            (dir / "notes.txt").string() + ": not a folder of .tsp files, an .npy or an .npz file");
  EXPECT_EQ(input_error_of([&] { load_batch_input(dir / "missing.npy"); }), (dir / "missing.npy").string() + ": no such file or folder");
  const fs::path empty = temp_dir("empty");
  EXPECT_EQ(input_error_of([&] { load_batch_input(empty); }), empty.string() + ": no .tsp or .tsp.gz file in this folder");
  test::write_bytes(dir / "c.tsp", "NAME: c\nDIMENSION: 2\n");
  const std::string message = input_error_of([&] { load_batch_input(dir); });
  EXPECT_EQ(message.rfind((dir / "c.tsp").string() + ":", 0), 0u) << message;
  fs::remove_all(dir);
  fs::remove_all(empty);
}

}  // namespace
}  // namespace formica::io
