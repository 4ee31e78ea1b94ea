"""llvmplug.Cache, llvmplug.fingerprint and compile(..., cache=...), on real compiles."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import llvmplug
from llvmplug import _args, _cached, _fingerprint, _loader, _store
from llvmplug import cache as cache_module

from cache_support import hammer, value_for  # noqa: E402

LIBRARY = """
define i32 @twice(i32 %x) {
  %y = shl i32 %x, 1
  ret i32 %y
}
"""

OTHER_LIBRARY = """
define i32 @thrice(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}
"""


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*/*.entry"))


def disk_bytes(directory: Path) -> int:
    return sum(path.stat().st_size for path in entries(directory))


# -- the Cache on its own --------------------------------------------------


def test_memory_get_put_len_clear_and_stats():
    cache = llvmplug.Cache()
    assert cache.get("a") is None
    cache.put("a", b"one")
    cache.put("b", bytearray(b"two"))
    assert cache.get("a") == b"one" and cache.get("b") == b"two"
    assert len(cache) == 2
    assert cache.stats == llvmplug.CacheStats(hits=2, disk_hits=0, misses=1, corrupt=0, bytes=6, entries=2)
    cache.clear()
    assert len(cache) == 0 and cache.get("a") is None
    assert cache.stats.bytes == 0 and cache.stats.hits == 0


def test_memory_is_lru_and_bounded_by_bytes():
    cache = llvmplug.Cache(max_bytes=300)
    for index in range(3):
        cache.put(f"k{index}", bytes(100))
    cache.get("k0")  # now k1 is the least recently used
    cache.put("k3", bytes(100))
    assert cache.get("k1") is None
    assert all(cache.get(key) is not None for key in ("k0", "k2", "k3"))
    assert cache.stats.bytes == 300
    cache.put("huge", bytes(301))  # larger than the bound: not kept, evicts nothing
    assert cache.get("huge") is None and cache.stats.bytes == 300


def test_disk_entries_survive_the_cache_object(tmp_path):
    llvmplug.Cache(tmp_path).put("key", b"value")
    fresh = llvmplug.Cache(tmp_path)
    assert fresh.get("key") == b"value"
    assert fresh.stats.disk_hits == 1
    assert fresh.get("key") == b"value" and fresh.stats.disk_hits == 1  # now from memory
    assert len(fresh) == 1
    fresh.clear()
    assert entries(tmp_path) == [] and llvmplug.Cache(tmp_path).get("key") is None


def _flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def _flip_digest(data: bytes) -> bytes:
    at = _store._HEADER.size - 1
    return data[:at] + bytes([data[at] ^ 0x80]) + data[at + 1:]


def _other_version(data: bytes) -> bytes:
    at = len(_store._MAGIC)
    return data[:at] + (cache_module.FORMAT_VERSION + 1).to_bytes(2, "little") + data[at + 2:]


DAMAGE = {
    "flip a value byte": _flip_last,
    "flip a digest byte": _flip_digest,
    "truncate by one": lambda data: data[:-1],
    "truncate to the header": lambda data: data[: _store._HEADER.size],
    "empty file": lambda data: b"",
    "one byte appended": lambda data: data + b"\0",
    "another format version": _other_version,
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_entry_is_a_miss_and_is_removed(tmp_path, damage):
    llvmplug.Cache(tmp_path).put("key", b"the right value" * 10)
    (path,) = entries(tmp_path)
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    cache = llvmplug.Cache(tmp_path)
    assert cache.get("key") is None
    assert not path.exists()
    assert cache.stats.corrupt == 1 and cache.stats.misses == 1


def test_a_valid_entry_of_another_key_under_this_name_is_a_miss(tmp_path):
    cache = llvmplug.Cache(tmp_path)
    cache.put("key", b"mine")
    cache.put("other", b"theirs")
    mine = cache._entry_path(b"key")
    shutil.copyfile(cache._entry_path(b"other"), mine)
    assert llvmplug.Cache(tmp_path).get("key") is None
    assert llvmplug.Cache(tmp_path).get("other") == b"theirs"


# -- a directory others can write to -------------------------------------------

POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX owners and modes")
ROOT = pytest.mark.skipif(os.name == "nt" or os.geteuid() != 0, reason="gives files to another user (needs root)")
NOBODY = 65534


def _plant(directory: Path, key: str, value: bytes) -> None:
    """What someone who can write to ``directory`` does: a valid entry of their choosing."""
    llvmplug.Cache(directory).put(key, value)


@POSIX
@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777, 0o722], ids=oct)
def test_a_directory_others_can_write_to_is_refused(tmp_path, mode):
    # Old: accepted silently, and the planted entry was returned as compiled code.
    shared = tmp_path / "shared"
    _plant(shared, "key", b"planted")
    shared.chmod(mode)
    with pytest.raises(llvmplug.ArgumentError, match="writable by .*others could plant"):
        llvmplug.Cache(shared)


@POSIX
def test_a_directory_under_a_writable_parent_is_refused_unless_the_parent_is_sticky(tmp_path):
    parent = tmp_path / "parent"
    parent.mkdir()
    parent.chmod(0o777)  # others could rename our directory away and put theirs in its place
    with pytest.raises(llvmplug.ArgumentError, match="above it is writable by .* without the sticky bit"):
        llvmplug.Cache(parent / "cache")
    parent.chmod(0o1777)  # as /tmp: what we make in it stays ours
    cache = llvmplug.Cache(parent / "cache")
    cache.put("key", b"value")
    assert llvmplug.Cache(parent / "cache").get("key") == b"value"


@POSIX
def test_missing_directories_are_made_private(tmp_path):
    old = os.umask(0o002)  # a group-writable default, as on many desktops
    try:
        cache = llvmplug.Cache(tmp_path / "a" / "b" / "cache")
        cache.put("key", b"value")
    finally:
        os.umask(old)
    for path in (tmp_path / "a", tmp_path / "a" / "b", tmp_path / "a" / "b" / "cache",
                 entries(tmp_path / "a" / "b" / "cache")[0].parent):
        assert path.stat().st_mode & 0o777 == 0o700, path


@ROOT
def test_a_directory_of_another_user_is_refused(tmp_path):
    theirs = tmp_path / "theirs"
    _plant(theirs, "key", b"planted")
    os.chown(theirs, NOBODY, NOBODY)
    with pytest.raises(llvmplug.ArgumentError, match=f"belongs to user id {NOBODY}"):
        llvmplug.Cache(theirs)
    above = tmp_path / "above"
    above.mkdir()
    os.chown(above, NOBODY, NOBODY)
    with pytest.raises(llvmplug.ArgumentError, match=f"above it belongs to user id {NOBODY}"):
        llvmplug.Cache(above / "cache")


@ROOT
def test_entries_and_shards_of_another_user_are_not_trusted(tmp_path):
    # Planted while the directory was open to others, then the directory made private.
    _plant(tmp_path, "key", b"planted")
    (path,) = entries(tmp_path)
    os.chown(path, NOBODY, NOBODY)
    cache = llvmplug.Cache(tmp_path)
    assert cache.get("key") is None and not path.exists() and cache.stats.corrupt == 1
    os.chown(path.parent, NOBODY, NOBODY)  # their shard: they could replace what we write there
    with pytest.warns(llvmplug.LLVMPlugWarning, match="not private to this user"):
        cache.put("key", b"ours")
    assert entries(tmp_path) == [] and cache.get("key") == b"ours"  # the memory tier still answers


def test_disk_size_stays_within_max_bytes(tmp_path):
    cache = llvmplug.Cache(tmp_path, max_bytes=20_000)
    for index in range(200):
        key = f"key-{index}"
        cache.put(key, value_for(key))
        assert disk_bytes(tmp_path) <= 20_000
    assert llvmplug.Cache(tmp_path).get("key-199") == value_for("key-199")  # the newest stays
    assert cache.stats.bytes <= 20_000


def test_disk_eviction_drops_the_least_recently_used(tmp_path):
    cache = llvmplug.Cache(tmp_path, max_bytes=3000)
    for index in range(3):
        cache.put(f"k{index}", bytes(900))
        os.utime(cache._entry_path(f"k{index}".encode()), (1000 + index, 1000 + index))
    # A hit from disk refreshes k0's mtime, so k1 is now the oldest.
    assert llvmplug.Cache(tmp_path, max_bytes=3000).get("k0") is not None
    cache.put("k3", bytes(900))
    survivors = {path.name for path in entries(tmp_path)}
    assert cache._entry_path(b"k1").name not in survivors
    assert cache._entry_path(b"k0").name in survivors and cache._entry_path(b"k3").name in survivors


def test_stale_temporary_files_are_removed_and_live_ones_kept(tmp_path):
    cache = llvmplug.Cache(tmp_path)
    cache.put("key", b"value")
    shard = cache._entry_path(b"key").parent
    stale, live = shard / ".tmp-stale", shard / ".tmp-live"
    stale.write_bytes(b"half written")
    live.write_bytes(b"being written")
    os.utime(stale, (time.time() - 2 * 3600,) * 2)
    assert len(cache) == 1  # a scan
    assert not stale.exists() and live.exists()


def test_a_write_failure_warns_and_the_memory_tier_still_answers(tmp_path):
    cache = llvmplug.Cache(tmp_path)
    shard = cache._entry_path(b"key").parent
    shard.write_bytes(b"a file where the shard directory belongs")
    with pytest.warns(llvmplug.LLVMPlugWarning, match="cannot write"):
        cache.put("key", b"value")
    assert cache.get("key") == b"value"
    assert list(tmp_path.glob("**/.tmp-*")) == []


def test_threads_sharing_one_cache_read_only_right_values(tmp_path):
    cache = llvmplug.Cache(tmp_path, max_bytes=50_000)
    wrong = []

    def work(seed: int) -> None:
        for round_ in range(300):
            key = f"key-{(seed * 7 + round_) % 40}"
            if round_ % 3 == 0:
                cache.put(key, value_for(key))
            else:
                value = cache.get(key)
                if value is not None and value != value_for(key):
                    wrong.append(key)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
    assert cache.stats.bytes <= 50_000 and cache.stats.hits > 0


def test_processes_sharing_a_directory_read_only_right_values(tmp_path):
    # Spawned processes, a small bound so that evictions race with reads
    # and writes of the same entries.
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        results = pool.starmap(hammer, [(str(tmp_path), 60_000, seed, 400) for seed in range(4)])
    assert [result["wrong"] for result in results] == [0, 0, 0, 0]
    assert sum(result["hits"] for result in results) > 0
    assert len({result["pid"] for result in results}) > 1
    reader = llvmplug.Cache(tmp_path, max_bytes=60_000)
    for index in range(64):
        key = f"key-{index}"
        assert reader.get(key) in (None, value_for(key))
    assert reader.stats.corrupt == 0
    reader.put("one-more", b"x")  # a put rescans when it finds the estimate over the bound
    reader._trim()
    assert disk_bytes(tmp_path) <= 60_000


def test_a_pickled_cache_keeps_its_directory_and_bound(tmp_path):
    cache = llvmplug.Cache(tmp_path, max_bytes=12345)
    cache.put("key", b"value")
    copy = pickle.loads(pickle.dumps(cache))
    assert copy.directory == cache.directory and copy.max_bytes == 12345
    assert copy.get("key") == b"value" and copy.stats.disk_hits == 1


@pytest.mark.parametrize(
    "arguments, error",
    [
        ({"max_bytes": 0}, llvmplug.ArgumentError),
        ({"max_bytes": -1}, llvmplug.ArgumentError),
        ({"max_bytes": 1.5}, llvmplug.ArgumentTypeError),
        ({"max_bytes": True}, llvmplug.ArgumentTypeError),
        ({"directory": 123}, llvmplug.ArgumentTypeError),
        ({"directory": b"/tmp"}, llvmplug.ArgumentTypeError),
        ({"directory": ""}, llvmplug.ArgumentError),
        ({"directory": "/tmp/a\0b"}, llvmplug.ArgumentError),
    ],
)
def test_bad_cache_arguments_raise_typed_errors(arguments, error):
    with pytest.raises(error):
        llvmplug.Cache(**arguments)


def test_a_file_as_directory_is_an_argument_error_and_writes_nothing(tmp_path):
    path = tmp_path / "file"
    path.write_bytes(b"not a directory")
    with pytest.raises(llvmplug.ArgumentError, match="not a directory"):
        llvmplug.Cache(path)
    assert path.read_bytes() == b"not a directory" and os.listdir(tmp_path) == ["file"]


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda cache: cache.get(1), llvmplug.ArgumentTypeError),
        (lambda cache: cache.get(""), llvmplug.ArgumentError),
        (lambda cache: cache.get("\ud800"), llvmplug.ArgumentError),
        (lambda cache: cache.put(b"key", b"value"), llvmplug.ArgumentTypeError),
        (lambda cache: cache.put("key", "text"), llvmplug.ArgumentTypeError),
        (lambda cache: cache.put("key", None), llvmplug.ArgumentTypeError),
    ],
)
def test_bad_keys_and_values_raise_typed_errors(tmp_path, call, error):
    cache = llvmplug.Cache(tmp_path)
    with pytest.raises(error):
        call(cache)
    assert entries(tmp_path) == [] and len(cache) == 0


# -- fingerprint -------------------------------------------------------------


@pytest.fixture(scope="module")
def default():
    return llvmplug.default_plugin()


BASE = {"target": None, "flags": "-O2", "output": "obj", "link": (), "parts": None}


def key(module: str, plugin=None, **changes) -> str:
    arguments = {**BASE, **changes}
    return llvmplug.fingerprint(module, plugin=plugin, **arguments)


def _with_info(field: str):
    class Reporting(llvmplug.Plugin):
        """A real private copy that reports one host fact differently."""

        def info(self):
            facts = super().info()
            facts[field] = ["something else"] if isinstance(facts[field], list) else f"not {facts[field]}"
            return facts

    return Reporting(private=True)


class SafeAll(llvmplug.Plugin):
    # This branch's shim cannot change the policy yet (abi.cpp refuses
    # llvmplug_set_policy): a real private copy that reports "all".
    @property
    def options_policy(self) -> str:
        return "all"


ARGUMENT_CHANGES = {
    "module": ({}, {"module": OTHER_LIBRARY}),
    "module, one byte": ({}, {"module": LIBRARY + " "}),
    "target": ({}, {"target": "x86_64-unknown-linux-gnu"}),
    "target, another": ({"target": "x86_64-unknown-linux-gnu"}, {"target": "i686-unknown-linux-gnu"}),
    "flags": ({}, {"flags": "-O3"}),
    "flags, order": ({"flags": "-O2 -mcpu=znver3"}, {"flags": "-mcpu=znver3 -O2"}),
    "flags, str vs list": ({"flags": "-O2"}, {"flags": ["-O2"]}),
    "flags, spacing": ({"flags": "-O2 -mcpu=native"}, {"flags": "-O2  -mcpu=native"}),
    "output": ({}, {"output": "asm"}),
    "link, one": ({}, {"link": (OTHER_LIBRARY,)}),
    "link, order": ({"link": (LIBRARY, OTHER_LIBRARY)}, {"link": (OTHER_LIBRARY, LIBRARY)}),
    "link, content": ({"link": (OTHER_LIBRARY,)}, {"link": (OTHER_LIBRARY + " ",)}),
    "parts": ({}, {"parts": 2}),
    "parts, count": ({"parts": 2}, {"parts": 3}),
    "parts None vs 1": ({}, {"parts": 1}),
}


@pytest.mark.parametrize("change", ARGUMENT_CHANGES, ids=list(ARGUMENT_CHANGES))
def test_every_argument_changes_the_fingerprint(default, change):
    before, after = ARGUMENT_CHANGES[change]
    before = {"module": LIBRARY, **before}
    after = {**before, **after}
    assert key(**before, plugin=default) != key(**after, plugin=default)
    assert key(**before, plugin=default) == key(**before, plugin=default)


@pytest.mark.parametrize("lines", [["-x86-asm-syntax=intel"], ["-x86-asm-syntax=intel", "-x86-asm-syntax=att"]],
                         ids=["one", "order"])
def test_sticky_options_change_the_fingerprint(default, lines):
    with llvmplug.Plugin(private=True) as plugin:
        plain = key(LIBRARY, plugin)
        assert plain == key(LIBRARY, default)  # a private copy of the same file: same output
        for line in lines:
            plugin.set_options(line)
        sticky = key(LIBRARY, plugin)
        assert sticky != plain
        if len(lines) > 1:
            plugin.clear_options()
            for line in reversed(lines):
                plugin.set_options(line)
            assert key(LIBRARY, plugin) not in (plain, sticky)
        plugin.clear_options()
        assert key(LIBRARY, plugin) == plain


def test_the_options_policy_changes_the_fingerprint(default):
    with SafeAll(private=True) as plugin:
        assert key(LIBRARY, plugin) != key(LIBRARY, default)


@pytest.mark.parametrize("field", _fingerprint._HOST_KEYS)
def test_every_host_fact_changes_the_fingerprint_of_a_native_compile(default, field):
    # host_cpu and host_features are what -mcpu=native resolves to.
    with _with_info(field) as plugin:
        assert key(LIBRARY, plugin, flags="-O2 -mcpu=native") != key(LIBRARY, default, flags="-O2 -mcpu=native")


@pytest.mark.skipif(not _fingerprint._FIXED_DEFAULT_TRIPLE, reason="LLVM's default triple follows the host here")
@pytest.mark.parametrize("field", _fingerprint._HOST_KEYS)
def test_host_facts_do_not_change_the_fingerprint_of_a_compile_that_does_not_read_them(default, field):
    # Without "native" the output is the build's and the arguments' alone, so
    # machines with other CPUs share entries (a shared directory, Dask).
    with _with_info(field) as plugin:
        assert key(LIBRARY, plugin) == key(LIBRARY, default)
        assert key(LIBRARY, plugin, target="x86_64-unknown-linux-gnu") == key(
            LIBRARY, default, target="x86_64-unknown-linux-gnu")


@pytest.mark.parametrize("native", [
    {"flags": "-O2 -mattr=native"},
    {"flags": ["-O2", "-mcpu=native"]},
    {"module": LIBRARY.replace("{", '#0 {') + 'attributes #0 = { "target-cpu"="native" }\n'},
    {"link": [LIBRARY.replace("{", '#0 {').replace("twice", "other") + 'attributes #0 = { "target-cpu"="native" }\n']},
])
def test_native_anywhere_keys_on_the_host(native):
    def request(module=LIBRARY, flags="-O2", link=()):
        return _args.Request.make(module, None, flags, link=link)

    assert _fingerprint._needs_host(request(native.get("module", LIBRARY), native.get("flags", "-O2"),
                                            native.get("link", ())), sticky=())
    assert not _fingerprint._needs_host(request(), ()) or not _fingerprint._FIXED_DEFAULT_TRIPLE
    assert _fingerprint._needs_host(request(), ("-mcpu=native",))


def _another_build(default, directory: Path, build_id: str, beside: str | None) -> Path:
    """A copy of the shim whose compiled-in build id is ``build_id`` (patched), with ``beside`` installed next to it."""
    directory.mkdir()
    shim = directory / default.path.name
    data = default.path.read_bytes()
    ours = default.info()["build_id"].encode()
    assert data.count(ours) == 1  # the one string llvmplug_build_id returns
    shim.write_bytes(data.replace(ours, build_id.encode()))
    if beside is not None:
        _loader.build_id_file(shim).write_text(beside + "\n")
    return shim


OTHER_BUILD = "0123456789abcdef" * 4


def test_the_build_id_changes_the_fingerprint(default, tmp_path):
    shim = _another_build(default, tmp_path / "other", OTHER_BUILD, OTHER_BUILD)
    with llvmplug.Plugin(private=True, path=shim) as plugin:
        assert plugin.info()["build_id"] == OTHER_BUILD
        assert plugin.info()["llvm_version"] == default.info()["llvm_version"]
        assert key(LIBRARY, plugin) != key(LIBRARY, default)
    # The same build elsewhere, or with bytes that do not change the code
    # (a byte appended): the same build, the same key, no hashing of the file.
    same = _another_build(default, tmp_path / "same", default.info()["build_id"], default.info()["build_id"])
    with open(same, "ab") as file:
        file.write(b"\0")
    with llvmplug.Plugin(private=True, path=same) as plugin:
        assert key(LIBRARY, plugin) == key(LIBRARY, default)


def test_a_library_that_is_not_the_build_beside_it_is_refused(default, tmp_path):
    shim = _another_build(default, tmp_path / "stale", OTHER_BUILD, default.info()["build_id"])
    for private in (False, True):
        with pytest.raises(llvmplug.LibraryLoadError, match="build id installed beside it"):
            llvmplug.Plugin(private=private, path=shim)
    # No file beside it claims nothing: a copy made by hand still loads.
    bare = _another_build(default, tmp_path / "bare", OTHER_BUILD, None)
    with llvmplug.Plugin(private=True, path=bare) as plugin:
        assert plugin.info()["build_id"] == OTHER_BUILD


def test_keys_follow_the_loaded_build_not_the_file_as_it_is_now(default, tmp_path):
    # An upgrade in place replaces the file (and the id beside it) under a
    # loaded copy: what runs is still the build that was loaded.
    shim = _another_build(default, tmp_path / "a", default.info()["build_id"], default.info()["build_id"])
    with llvmplug.Plugin(private=True, path=shim) as known:
        loaded = key(LIBRARY, known)
        assert loaded == key(LIBRARY, default)
        upgrade = _another_build(default, tmp_path / "b", OTHER_BUILD, OTHER_BUILD)
        shutil.copyfile(upgrade, shim)
        shutil.copyfile(_loader.build_id_file(upgrade), _loader.build_id_file(shim))
        assert key(LIBRARY, known) == loaded
        known.reload()  # a private copy runs the bytes this process read first (its memfd template)
        assert known.info()["build_id"] == default.info()["build_id"] and key(LIBRARY, known) == loaded
        # Another Plugin loads the file as it is now: this process now runs two
        # builds of that file, and a key can no longer say which one a Plugin
        # of it runs, so compiles are neither looked up nor stored.
        with llvmplug.Plugin(path=shim) as upgraded:
            assert upgraded.info()["build_id"] == OTHER_BUILD
            with pytest.raises(llvmplug.LibraryLoadError, match="cannot be identified"):
                key(LIBRARY, known)
            cache = llvmplug.Cache()
            assert known.compile(LIBRARY, cache=cache) == default.compile(LIBRARY)
            assert len(cache) == 0 and cache.stats.misses == 0


HIT_SCRIPT = """
import json, sys, llvmplug
module, directory, flags = sys.argv[1:4]
cache = llvmplug.Cache(directory)
output = llvmplug.compile(open(module).read(), flags=flags, cache=cache)
maps = open("/proc/self/maps").read()
print(json.dumps({"hits": cache.stats.disk_hits, "misses": cache.stats.misses, "size": len(output),
                  "loaded": "libllvmplug" in maps or "llvmplug-" in maps}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
@pytest.mark.parametrize("flags, loads", [("-O2", False), ("-O2 -mcpu=native", True)])
def test_a_disk_hit_in_a_fresh_process_loads_no_llvm(tmp_path, flags, loads):
    # A build system or a command line: one compile per process, mostly hits.
    module = tmp_path / "library.ll"
    module.write_text(LIBRARY)

    def run() -> dict:
        done = subprocess.run([sys.executable, "-c", HIT_SCRIPT, str(module), str(tmp_path / "cache"), flags],
                              capture_output=True, text=True, timeout=120, check=True, cwd=tmp_path)
        return json.loads(done.stdout)

    first, second = run(), run()
    assert first["hits"] == 0 and first["misses"] == 1 and first["loaded"]
    assert second["hits"] == 1 and second["misses"] == 0 and second["size"] == first["size"]
    assert second["loaded"] == loads


def test_the_format_version_changes_the_fingerprint(default, monkeypatch):
    before = key(LIBRARY, default)
    monkeypatch.setattr(_store, "FORMAT_VERSION", _store.FORMAT_VERSION + 1)
    assert key(LIBRARY, default) != before


def test_text_and_its_utf8_bytes_share_a_fingerprint_and_an_output(default):
    # The one normalisation: the shim is handed the UTF-8 bytes of a str.
    assert key(LIBRARY, default) == key(LIBRARY.encode(), default)
    assert default.compile(LIBRARY) == default.compile(LIBRARY.encode())


def test_fingerprint_defaults_to_the_default_plugin(default):
    assert llvmplug.fingerprint(LIBRARY) == llvmplug.fingerprint(LIBRARY, None, (), plugin=default)


FINGERPRINT_SCRIPT = """
import sys, llvmplug
module = open(sys.argv[1]).read()
print(llvmplug.fingerprint(module, flags=["-O3", "-mcpu=native"], output="asm"))
plugin = llvmplug.Plugin(private=True)
plugin.set_options("-x86-asm-syntax=intel")
print(llvmplug.fingerprint(module, "x86_64-unknown-linux-gnu", "-O1", link=[module], plugin=plugin))
"""


def test_identical_inputs_give_identical_fingerprints_across_processes(default, tmp_path):
    module = tmp_path / "library.ll"
    module.write_text(LIBRARY)
    runs = [
        subprocess.run([sys.executable, "-c", FINGERPRINT_SCRIPT, str(module)], capture_output=True,
                       text=True, timeout=120, check=True, cwd=tmp_path).stdout.split()
        for _ in range(2)
    ]
    with llvmplug.Plugin(private=True) as plugin:
        plugin.set_options("-x86-asm-syntax=intel")
        here = [
            llvmplug.fingerprint(LIBRARY, flags=["-O3", "-mcpu=native"], output="asm"),
            llvmplug.fingerprint(LIBRARY, "x86_64-unknown-linux-gnu", "-O1", link=[LIBRARY], plugin=plugin),
        ]
    assert runs[0] == runs[1] == here


@pytest.mark.parametrize(
    "arguments, error",
    [
        ({"module": 1}, llvmplug.ArgumentTypeError),
        ({"module": "\ud800"}, llvmplug.ArgumentError),
        ({"target": 1}, llvmplug.ArgumentTypeError),
        ({"flags": [1]}, llvmplug.ArgumentTypeError),
        ({"flags": b"-O2"}, llvmplug.ArgumentTypeError),
        ({"output": None}, llvmplug.ArgumentTypeError),
        ({"parts": "2"}, llvmplug.ArgumentTypeError),
        ({"parts": True}, llvmplug.ArgumentTypeError),
        ({"link": LIBRARY}, llvmplug.ArgumentTypeError),
        ({"link": [1]}, llvmplug.ArgumentTypeError),
    ],
)
def test_bad_fingerprint_arguments_raise_typed_errors(default, arguments, error):
    arguments = {"module": LIBRARY, **arguments}
    with pytest.raises(error):
        llvmplug.fingerprint(**arguments, plugin=default)


# -- compile(..., cache=...) -------------------------------------------------


def _spread(files: list[Path], count: int) -> list[Path]:
    step = max(1, len(files) // count)
    return files[::step][:count]


@pytest.mark.parametrize("flags, output", [("-O2", "obj"), ("-O0", "asm"), ("-O3 -mcpu=native", "obj")])
def test_a_hit_returns_the_bytes_of_a_fresh_compile(corpus_files, flags, output):
    cache = llvmplug.Cache()
    for path in _spread(corpus_files, 8):
        module = path.read_text()
        fresh = llvmplug.compile(module, flags=flags, output=output, cache=None)
        miss = llvmplug.compile(module, flags=flags, output=output, cache=cache)
        hit = llvmplug.compile(module, flags=flags, output=output, cache=cache)
        assert fresh == miss == hit, path.name
    assert cache.stats.hits == cache.stats.misses == 8


def test_a_disk_hit_returns_the_bytes_of_a_fresh_compile(corpus_files, tmp_path):
    modules = [path.read_text() for path in _spread(corpus_files, 5)]
    for module in modules:
        llvmplug.compile(module, cache=llvmplug.Cache(tmp_path))
    other = llvmplug.Cache(tmp_path)  # as another process would see the directory
    for module in modules:
        assert llvmplug.compile(module, cache=other) == llvmplug.compile(module, cache=None)
    assert other.stats.disk_hits == len(modules) and other.stats.misses == 0


@pytest.mark.parametrize("damage", ["flip a value byte", "truncate by one"])
def test_a_damaged_compile_entry_is_recompiled(corpus_files, tmp_path, damage):
    module = corpus_files[len(corpus_files) // 2].read_text()
    fresh = llvmplug.compile(module, cache=None)
    llvmplug.compile(module, cache=llvmplug.Cache(tmp_path))
    (path,) = entries(tmp_path)
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    cache = llvmplug.Cache(tmp_path)
    assert llvmplug.compile(module, cache=cache) == fresh
    assert cache.stats.corrupt == 1 and cache.stats.hits == 0
    assert llvmplug.Cache(tmp_path).get(llvmplug.fingerprint(module)) == fresh  # rewritten, valid


def test_errors_are_never_cached():
    cache = llvmplug.Cache()
    for _ in range(2):
        with pytest.raises(llvmplug.ParseError):
            llvmplug.compile("this is not IR", cache=cache)
        with pytest.raises(llvmplug.OptionError):
            llvmplug.compile(LIBRARY, flags="-no-such-option", cache=cache)
    assert len(cache) == 0 and cache.stats.hits == 0


def test_the_plugin_cache_is_the_default_and_a_call_can_override_it():
    mine, other = llvmplug.Cache(), llvmplug.Cache()
    with llvmplug.Plugin(private=True, cache=mine) as plugin:
        assert plugin.cache is mine
        plugin.compile(LIBRARY)
        plugin.compile(LIBRARY)
        assert (mine.stats.misses, mine.stats.hits) == (1, 1)
        plugin.compile(LIBRARY, cache=None)
        assert (mine.stats.misses, mine.stats.hits) == (1, 1)
        plugin.compile(LIBRARY, cache=other)
        assert (mine.stats.misses, mine.stats.hits) == (1, 1) and other.stats.misses == 1
    assert llvmplug.Plugin(private=True).cache is None


def test_llvmplug_compile_uses_no_cache_unless_given(default):
    cache = llvmplug.Cache()
    assert default.cache is None
    llvmplug.compile(LIBRARY, cache=cache)
    llvmplug.compile(LIBRARY)
    assert cache.stats.misses == 1 and cache.stats.hits == 0
    llvmplug.compile(LIBRARY, cache=cache)
    assert cache.stats.hits == 1


@pytest.mark.parametrize("value", ["cache", 1, {}])
def test_a_cache_that_is_not_a_cache_is_a_type_error(value):
    with pytest.raises(llvmplug.ArgumentTypeError, match="cache must be"):
        llvmplug.compile(LIBRARY, cache=value)
    with pytest.raises(llvmplug.ArgumentTypeError, match="cache must be"):
        llvmplug.Plugin(private=True, cache=value)


def test_sticky_options_miss_and_compile_under_them():
    cache = llvmplug.Cache()
    with llvmplug.Plugin(private=True, cache=cache) as plugin, llvmplug.Plugin(private=True) as peer:
        att = plugin.compile(LIBRARY, output="asm")
        plugin.set_options("-x86-asm-syntax=intel")
        peer.set_options("-x86-asm-syntax=intel")
        intel = plugin.compile(LIBRARY, output="asm")
        assert intel != att and intel == peer.compile(LIBRARY, output="asm")
        assert cache.stats.misses == 2
        plugin.clear_options()
        assert plugin.compile(LIBRARY, output="asm") == att
        assert cache.stats.hits == 1


def test_a_result_is_not_stored_when_the_options_changed_during_the_compile():
    cache = llvmplug.Cache()
    with llvmplug.Plugin(private=True) as plugin:

        def compile_then_change() -> bytes:
            # Another thread's set_options landing between the key and the store.
            result = plugin.compile(LIBRARY, output="asm", cache=None)
            plugin.set_options("-x86-asm-syntax=intel")
            return result

        cache_module.cached(cache, plugin, compile_then_change, LIBRARY, None, (), "asm")
        assert len(cache) == 0
        plugin.clear_options()
        cache_module.cached(cache, plugin, lambda: plugin.compile(LIBRARY, output="asm", cache=None),
                            LIBRARY, None, (), "asm")
        assert len(cache) == 1


def test_split_outputs_round_trip_through_the_cache(default):
    cache = llvmplug.Cache()
    parts = [b"first object", b"", b"third"]
    first = cache_module.cached(cache, default, lambda: parts, LIBRARY, None, (), "obj", parts=3)
    second = cache_module.cached(cache, default, lambda: pytest.fail("not a hit"), LIBRARY, None, (), "obj", parts=3)
    assert first == second == parts


BAD_PARTS = {
    "truncated sizes": _cached._PARTS_MAGIC + b"\x03\0\0\0" + bytes(8),
    "no count": _cached._PARTS_MAGIC,
    "a huge count": _cached._PARTS_MAGIC + b"\xff\xff\xff\xff" + bytes(64),
    "sizes past the end": _cached._encode_parts([b"a", b"b"])[:-1],
    "bytes after the parts": _cached._encode_parts([b"a", b"b"]) + b"c",
    "not a parts record": b"\x7fELF an object, not parts",
}


@pytest.mark.parametrize("bad", BAD_PARTS, ids=list(BAD_PARTS))
def test_a_damaged_parts_entry_is_compiled_again(default, tmp_path, bad):
    # Old: struct.error for the first three, the raw bytes (not a list) for the last.
    cache = llvmplug.Cache(tmp_path)
    parts = [b"first object", b"", b"third"]
    request = _args.Request.make(LIBRARY, None, (), output="obj", split=True, parts=3)
    key = _fingerprint._key(request, *_fingerprint._options_state(default),
                            _fingerprint._identity(_fingerprint._build_of(default), default, False))
    cache.put(key, BAD_PARTS[bad])
    assert cache_module.cached(cache, default, lambda: parts, LIBRARY, None, (), "obj", parts=3) == parts
    assert cache_module.cached(cache, default, lambda: pytest.fail("not a hit"), LIBRARY, None, (), "obj",
                               parts=3) == parts  # replaced by the good record


def test_the_cache_benchmark_runs_and_reports_every_row(tmp_path):
    # Structure only: speed targets live in the report, never in a test.
    checkout = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--only", "cache", "--out", str(tmp_path)],
                          cwd=checkout, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "benchmarks.md").read_text()
    for row in ("compile, no cache", "hit in memory", "hit on disk", "fingerprint (part of a hit)"):
        assert f"| {row} |" in report
    assert "| cache hit in memory <= 50 µs" in report


def test_an_oversized_entry_file_is_a_miss_and_is_removed(tmp_path):
    llvmplug.Cache(tmp_path, max_bytes=1000).put("key", b"small")
    (path,) = entries(tmp_path)
    path.write_bytes(path.read_bytes() + bytes(2000))
    cache = llvmplug.Cache(tmp_path, max_bytes=1000)
    assert cache.get("key") is None and not path.exists() and cache.stats.corrupt == 1


def test_threads_compiling_through_one_cache_get_fresh_bytes(corpus_files, tmp_path):
    modules = [path.read_text() for path in _spread(corpus_files, 6)]
    fresh = [llvmplug.compile(module, cache=None) for module in modules]
    cache = llvmplug.Cache(tmp_path)
    results: list[list[bytes]] = []

    def work() -> None:
        results.append([llvmplug.compile(module, cache=cache) for module in modules * 3])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [fresh * 3] * 4
    assert cache.stats.hits >= 4 * 6 * 3 - 4 * 6  # each thread misses each module at most once
