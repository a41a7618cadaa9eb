# SPDX-License-Identifier: Apache-2.0
"""The record library: CRC (against lines the firmware itself printed), exact decimals up to
18446744073709551615.000, framing (CR LF, ANSI, glued lines, leading noise), the writer, and
the value rules on hand-made records."""
import json
import zlib
from decimal import Decimal

from bmlib.records import frame, log, rules

# Printed by the kit's firmware (qemu-virt-riscv64, format 1 and format 2): real CRCs.
FIRMWARE_F1 = ('{"type":"end","format":1,"seq":15,"results":14,"failed":0,"stack_used_bytes":2264,'
               '"stack_bytes":16384,"crc":"13269f4a"}')
FIRMWARE_F2 = ('{"type":"end","format":2,"seq":29,"results":14,"ok":14,"fail":0,"trap":0,"timeout":0,'
               '"stack_overflow":0,"scratch_overrun":0,"exit_status":0,"stack_used_bytes":1976,'
               '"stack_bytes":16384,"crc":"84e0481f"}')


def test_crc_matches_firmware():
    for line in (FIRMWARE_F1, FIRMWARE_F2):
        body = line[:line.rfind('"crc":')]
        assert frame.crc_hex(body.encode()) == line[-10:-2]
        assert frame.crc_hex(body.encode()) == "%08x" % zlib.crc32(body.encode())
        fields, why = frame.parse_candidate(line.encode())
        assert why is None and fields["data"]["type"] == "end"


def test_crc_mismatch_and_truncation():
    bad = FIRMWARE_F2.replace('"ok":14', '"ok":13').encode()
    assert frame.parse_candidate(bad)[1].startswith("CRC mismatch")
    assert "no CRC" in frame.parse_candidate(FIRMWARE_F2[:-5].encode())[1]


def test_writer_round_trip_and_form():
    line = frame.dump({"type": "start", "format": 2, "seq": 1, "name": "crc32", "index": 1, "of": 14})
    assert line == ('{"type":"start","format":2,"seq":1,"name":"crc32","index":1,"of":14,"crc":"'
                    + frame.crc_hex(line[:line.rfind('"crc":')].encode()) + '"}')
    fields, why = frame.parse_candidate(line.encode())
    assert why is None and fields["seq"] == 1


def test_exact_decimals_to_u64_max():
    top = Decimal("18446744073709551615.000")
    line = frame.dump({"type": "x", "format": 2, "seq": 3, "max": top, "n": 2**64 - 1})
    d = frame.parse_candidate(line.encode())[0]["data"]
    assert d["max"] == top and isinstance(d["max"], Decimal)
    assert str(d["max"]) == "18446744073709551615.000"
    assert d["n"] == 18446744073709551615
    f = rules.Fields(d)
    assert f.dec("max") == top and f.int("n") == 2**64 - 1 and not f.errs
    f = rules.Fields({"a": Decimal("18446744073709551616.000"), "b": 2**64, "c": Decimal("1.50"),
                      "d": 5, "e": Decimal("-0.000"), "f": True})
    f.dec("a"), f.int("b"), f.dec("c"), f.dec("d"), f.dec("e"), f.int("f")
    assert len(f.errs) == 6, f.errs


def test_nan_and_duplicate_keys_are_named():
    body = '{"type":"result","format":2,"seq":2,"mean":NaN,'
    line = body + '"crc":"' + frame.crc_hex(body.encode()) + '"}'
    d = frame.parse_candidate(line.encode())[0]["data"]
    f = rules.Fields(d)
    f.dec("mean")
    assert f.errs == ["mean is NaN: not a number"]
    body = '{"type":"start","format":2,"seq":2,"seq":3,'
    line = body + '"crc":"' + frame.crc_hex(body.encode()) + '"}'
    fields = frame.parse_candidate(line.encode())[0]
    assert "appears twice" in fields["error"] and fields["seq"] == 2


def test_framing_tolerates_noise():
    a = frame.dump({"type": "start", "format": 2, "seq": 1, "name": "a", "index": 1, "of": 1})
    b = frame.dump({"type": "result", "format": 2, "seq": 2, "name": "a", "status": "fail",
                      "reason": "x", "phase": "verify"})
    data = (b"\xff\x00\x1b[2J" + a.encode() + b"\r\n"     # reset garbage and a clear-screen first
            + b"[1/1] a ...\r" + b.encode() + b"\n"        # a progress line overwritten by CR
            + a.encode() + b.encode() + b"\n"               # two records glued (lost newline)
            + b"\x1b[1;31m*** TRAP: x\x1b[0m\n")
    sc = frame.scan(data)
    assert [r.seq for r in sc.records] == [1, 2, 1, 2]
    assert not sc.bad
    assert any(h.text == "*** TRAP: x" for h in sc.human)


def test_noise_line_is_reported_not_fatal():
    sc = frame.scan(b"{1/14] array_walk ...\nhello\n")
    assert len(sc.bad) == 1 and "no CRC" in sc.bad[0].reason and not sc.records


def test_long_lines_of_record_starts():
    # A line of 20,000 record starts and no CRC: one bad line, found in time linear in the line
    # (a search from each start over the rest of the line takes seconds). The same starts glued
    # before a real record (a console that lost its newlines into noise): the record is still
    # found, the noise is one bad line.
    a = frame.dump({"type": "start", "format": 2, "seq": 7, "name": "a", "index": 1, "of": 1})
    noise = b'{"type":"result",' * 20000
    sc = frame.scan(noise + b"\n")
    assert not sc.records and len(sc.bad) == 1 and "no CRC" in sc.bad[0].reason
    sc = frame.scan(noise + a.encode() + b"\n" + a.encode() + noise + b"\n")
    assert [r.seq for r in sc.records] == [7, 7]
    assert [b.line for b in sc.bad] == [1, 2] and "CRC mismatch" in sc.bad[0].reason
    assert sc.records[0].pos == len(noise) and sc.records[1].pos == len(noise) + len(a) + 1


def test_rules_on_hand_made_result():
    ok = {"name": "x", "status": "ok", "unit": "cycles", "iters": 1, "n": 3,
          "min": Decimal("1.000"), "p50": Decimal("2.000"), "p90": Decimal("3.000"),
          "p99": Decimal("3.000"), "p999": Decimal("3.000"), "max": Decimal("3.000"),
          "mean": Decimal("2.000"), "stddev": Decimal("1.000"), "cv_ppm": 500000,
          "ci95": Decimal("2.484"), "bound_ppm": {"p50": 0, "p90": 0, "p99": 0, "p999": 0},
          "tukey": {"lo": Decimal("0.000"), "hi": Decimal("6.000"), "out_lo": 0, "out_hi": 0,
                    "mean": Decimal("2.000")},
          "flags": {"coarsened": False, "saturated": False}, "bins_per_octave": 46,
          "warmup": {"batches": 8, "settled": True}, "below_overhead": 0, "short_interval": False}
    assert rules.check_result(ok) == []
    # (t = 4.3027 at 2 degrees of freedom, not the normal 1.96: 1.96 / sqrt(3) = 1.132)
    assert "ci95 = 1.132 is not t x stddev / sqrt(n)" in rules.check_result(dict(ok, ci95=Decimal("1.132")))[0]
    errs = rules.check_result(dict(ok, p50=Decimal("4.000")))
    assert errs == ["p50 = 4.000 > p90 = 3.000"]
    assert rules.check_result(dict(ok, n=0))[0].startswith("n = 0")
    assert "tukey out_lo + out_hi = 4 > n = 3" in rules.check_result(dict(ok, tukey=dict(ok["tukey"], out_hi=4)))
    assert rules.check_result({"name": "x", "status": "trap", "reason": "r", "phase": "samples",
                               "trap": {"cause": "c", "pc": "0x10", "code": "0x2"}}) == []
    assert "carries figures" in rules.check_result({"name": "x", "status": "fail", "reason": "r",
                                                    "phase": "setup", "min": Decimal("1.000")})[0]


def test_rules_on_hand_made_hist():
    # five samples 10, 20, 21, 30, 40 with a tail of two (topk 2): bins of the layout whose
    # top octave is 20's (4): [10, 10] and [20, 20], [21, 21] at that resolution
    h = {"name": "x", "unit": "cycles", "div": 2, "n": 5, "min": 10, "max": 40, "sum": 121, "sumsq": 3441, "topk": 2,
         "bins_per_octave": 46, "saturated": {"sum": False, "bins": False},
         "bins": [[10, 10, 1], [20, 20, 1], [21, 21, 1]], "tail": [30, 40]}
    assert rules.check_hist(h) == []
    assert "sum = 120 is not what its bins" in rules.check_hist(dict(h, sum=120))[0]
    assert "sumsq = 3440 is not what its bins" in rules.check_hist(dict(h, sumsq=3440))[0]
    assert "not a bin of the layout" in rules.check_hist(dict(h, bins=[[10, 10, 1], [20, 21, 2]]))[0]
    assert "bins_per_octave = 23 but n = 5 gives 46" in rules.check_hist(dict(h, bins_per_octave=23))[0]
    assert rules.check_hist({k: v for k, v in h.items() if k != "saturated"}) == ["saturated is missing"]
    assert "far below where a sum saturates" in rules.check_hist(dict(h, saturated={"sum": True, "bins": False}))[0]
    assert rules.check_hist({k: v for k, v in h.items() if k != "topk"}) == ["topk is missing"]
    assert "is above the smallest tail value" in " ".join(rules.check_hist(dict(h, min=31)))
    assert "at most 4294967295" in rules.check_hist(dict(h, bins=[[10, 10, 2**32], [20, 20, 1], [21, 21, 1]]))[0]
    assert rules.check_hist(dict(h, n=6)) == ["bins and tail hold 5 samples but n = 6"]
    assert "overlaps" in rules.check_hist(dict(h, bins=[[10, 20, 1], [20, 21, 2], [21, 21, 1]]))[0]
    assert "below the last bin" in rules.check_hist(dict(h, tail=[15, 40]))[0]
    assert "max = 41" in rules.check_hist(dict(h, max=41))[0]
    assert "the tail holds 2 values" in rules.check_hist(dict(h, topk=4))[0]
    assert "power of two" in rules.check_hist(dict(h, topk=3))[0]
    assert rules.check_hist(dict(h, topk=2)) == []


def test_end_rules():
    e = {"results": 2, "ok": 1, "fail": 1, "trap": 0, "timeout": 0, "stack_overflow": 0,
         "scratch_overrun": 0, "exit_status": 1}
    assert rules.check_end(e) == []
    assert "expected 1" in rules.check_end(dict(e, exit_status=0))[0]
    assert "add up to 3" in rules.check_end(dict(e, trap=1))[0]


def test_boots_and_last_complete():
    import corpus
    lines = corpus.failing_log()
    recs = corpus.record_indexes(lines)
    data = corpus.text(lines[:recs[6] + 1] + lines)
    lg = log.analyze(data)
    assert [b.complete for b in lg.boots] == [False, True]
    assert [p.kind for p in lg.problems] == ["reset"]
    assert "board reset after record 6" in lg.problems[0].msg
    assert lg.last_complete() is lg.boots[1]
    assert json.loads(lg.boots[1].records[-1].text)["type"] == "end"
