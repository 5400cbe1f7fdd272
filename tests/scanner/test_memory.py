"""scanner.memory: glibc is told to keep freed memory; other C libraries are left alone."""

import platform

from scanner.memory import reuse_freed_memory


def test_glibc_takes_the_settings_and_a_second_call_is_a_no_op():
    on_glibc = platform.libc_ver()[0] == "glibc"
    assert reuse_freed_memory() is on_glibc
    assert reuse_freed_memory() is on_glibc
