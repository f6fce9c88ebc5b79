#!/usr/bin/env bash
# Regenerates everything under firmware-samples/: test-only keys (only when missing, or with
# --new-keys), the fake "blinky" application body, signed MCUboot images, broken images derived
# from them, expected.tsv and imgtool-divergent.tsv (what `imgtool verify` says about each file).
#
# Needs python3 (with venv) and PyPI access, only here: the outputs are committed so that building
# and testing dfu never needs Python.
#
#   firmware-samples/generate.sh              # re-run: keys kept, outputs reproduced
#   firmware-samples/generate.sh --new-keys   # also replace every key (all images change)
#
# Reproducibility: keys are kept, bodies come from a fixed seed, and Ed25519/unsigned images are
# byte-identical on every run. ECDSA and RSA-PSS signatures are randomised by the signer, so for
# those images a freshly signed file is thrown away and the committed one kept whenever the two
# differ only in the signature value and the committed one still verifies (see `keep_or_replace`).
# The broken samples are derived from the kept files, so a re-run changes nothing in git.
set -euo pipefail

IMGTOOL_VERSION=2.5.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

new_keys=0
for arg in "$@"; do
    case "$arg" in
        --new-keys) new_keys=1 ;;
        -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "generate.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/dfu-firmware-samples.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "== venv with imgtool==$IMGTOOL_VERSION in $work"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "imgtool==$IMGTOOL_VERSION"
IMGTOOL="$work/venv/bin/imgtool"
PY="$work/venv/bin/python"
echo "   $("$IMGTOOL" version | tail -n 1)" # sanity: the CLI runs

# --- Python helper (runs inside the venv; only byte surgery, no signing) -------------------------
cat > "$work/samples.py" <<'PYEOF'
"""Byte-level helpers for generate.sh: fake bodies, MCUboot image surgery, equivalence check."""
import hashlib
import struct
import sys

IMAGE_MAGIC = 0x96F3B83D
TLV_INFO_MAGIC = 0x6907
TLV_PROT_INFO_MAGIC = 0x6908
SIG_TLVS = {0x20, 0x22, 0x23, 0x24, 0x25}  # RSA2048_PSS, ECDSA_SIG, RSA3072_PSS, ED25519, SIG_PURE
SHA256_TLV, KEYHASH_TLV, ECDSA_SIG_TLV = 0x10, 0x01, 0x22


def prng(seed: bytes, n: int) -> bytes:
    """SHA-256 in counter mode: the same seed gives the same bytes on every Python version."""
    out = bytearray()
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(seed + counter.to_bytes(8, "little")).digest()
        counter += 1
    return bytes(out[:n])


def body(size: int, seed: str) -> bytes:
    """A fake Cortex-M application: a vector table (initial SP, Thumb handler addresses), then
    pseudo-random "code", then a version-free banner string. Deterministic for a given seed."""
    rnd = prng(seed.encode(), size)
    out = bytearray(rnd)
    struct.pack_into("<I", out, 0, 0x20010000)  # initial stack pointer (top of 64 KiB RAM)
    for i in range(1, 16):  # reset, NMI, HardFault, ... handlers: odd (Thumb) addresses in flash
        handler = 0x00000200 + 0x400 + (int.from_bytes(rnd[4 * i:4 * i + 2], "little") % size)
        struct.pack_into("<I", out, 4 * i, (handler & ~1) | 1)
    banner = b"blinky (dfu test firmware, not a real application) seed=" + seed.encode() + b"\0"
    out[size - 256:size - 256 + len(banner)] = banner
    return bytes(out)


def layout(b: bytes) -> dict:
    """Offsets of an image produced by imgtool (trusted input: our own fresh output)."""
    magic, _load, hdr, prot, img = struct.unpack_from("<IIHHI", b, 0)
    assert magic == IMAGE_MAGIC, "not an MCUboot image"
    prot_off = hdr + img
    unprot_off = prot_off + prot
    magic, total = struct.unpack_from("<HH", b, unprot_off)
    assert magic == TLV_INFO_MAGIC
    tlvs = []  # (offset of the TLV header, type, length)
    off = unprot_off + 4
    while off < unprot_off + total:
        t, ln = struct.unpack_from("<HH", b, off)
        tlvs.append((off, t, ln))
        off += 4 + ln
    return {"hdr": hdr, "img": img, "prot_off": prot_off, "prot": prot,
            "unprot_off": unprot_off, "unprot_total": total, "tlvs": tlvs}


def tlv(b: bytes, lay: dict, wanted: int):
    for off, t, ln in lay["tlvs"]:
        if t == wanted:
            return off, ln
    raise SystemExit(f"TLV 0x{wanted:02x} not found")


def equivalent(old: bytes, new: bytes) -> bool:
    """Same header, body, protected TLVs and unprotected TLVs, except for the signature values."""
    try:
        lo, ln = layout(old), layout(new)
    except Exception:
        return False
    if old[:lo["unprot_off"]] != new[:ln["unprot_off"]]:
        return False
    if [t for _, t, _ in lo["tlvs"]] != [t for _, t, _ in ln["tlvs"]]:
        return False
    for (oo, t, ol), (no, _, nl) in zip(lo["tlvs"], ln["tlvs"]):
        if t not in SIG_TLVS and old[oo:oo + 4 + ol] != new[no:no + 4 + nl]:
            return False
    return True


def derive(src: bytes, kind: str) -> bytes:
    lay = layout(src)
    b = bytearray(src)
    if kind == "tampered-body":  # one body bit flipped, well inside the body
        b[lay["hdr"] + lay["img"] // 3] ^= 0x01
    elif kind == "tampered-version":  # minor version 1 -> 2: header is hashed, hash must fail
        b[21] = (b[21] + 1) & 0xFF
    elif kind == "truncated-tlv":  # cut in the middle of the unprotected TLV area
        b = b[:lay["unprot_off"] + lay["unprot_total"] // 2]
    elif kind == "truncated-header":
        b = b[:20]
    elif kind == "lying-img-size":  # ih_img_size = whole file size, so header+body > file
        struct.pack_into("<I", b, 12, len(src))
    elif kind == "lying-tlv-total":  # TLV info total 256 bytes beyond the end of the file
        struct.pack_into("<H", b, lay["unprot_off"] + 2, len(src) - lay["unprot_off"] + 256)
    elif kind == "lying-hdr-size":  # ih_hdr_size 0xFFFF: beyond the end of a 48 KiB image
        assert len(src) < 0xFFFF
        struct.pack_into("<H", b, 8, 0xFFFF)
    elif kind == "bad-magic":  # what a user gets passing the ELF instead of the signed .bin
        b[0:4] = b"\x7fELF"
    elif kind == "bad-tlv-magic":  # 0x6907 -> 0x6906
        struct.pack_into("<H", b, lay["unprot_off"], TLV_INFO_MAGIC - 1)
    elif kind == "tampered-signature":  # last byte of DER s: still parseable DER, wrong value
        off, ln = tlv(src, lay, ECDSA_SIG_TLV)
        assert src[off + 4] == 0x30 and src[off + 5] + 2 == ln, "unexpected ECDSA DER layout"
        b[off + 4 + ln - 1] ^= 0x01
    elif kind == "missing-hash":  # SHA256 TLV retyped to vendor type 0xA0 (unprotected: sig stays valid)
        off, _ = tlv(src, lay, SHA256_TLV)
        struct.pack_into("<H", b, off, 0x00A0)
    elif kind == "wrong-keyhash":  # one KEYHASH bit flipped (unprotected: sig stays valid)
        off, _ = tlv(src, lay, KEYHASH_TLV)
        b[off + 4] ^= 0x01
    else:
        raise SystemExit(f"unknown derivation {kind}")
    return bytes(b)


def main(argv):
    cmd = argv[1]
    if cmd == "body":  # body SIZE SEED OUT
        with open(argv[4], "wb") as f:
            f.write(body(int(argv[2], 0), argv[3]))
    elif cmd == "equivalent":  # equivalent OLD NEW -> exit 0 if equivalent
        with open(argv[2], "rb") as f1, open(argv[3], "rb") as f2:
            sys.exit(0 if equivalent(f1.read(), f2.read()) else 1)
    elif cmd == "derive":  # derive KIND SRC OUT
        with open(argv[3], "rb") as f:
            src = f.read()
        with open(argv[4], "wb") as f:
            f.write(derive(src, argv[2]))
    else:
        raise SystemExit(f"unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv)
PYEOF
helper() { "$PY" "$work/samples.py" "$@"; }

# --- imgtool verify, reduced to one word -----------------------------------------------------------
# Sets VERIFY_RESULT (OK, INVALID_HASH, INVALID_SIGNATURE, KEY_MISMATCH, INVALID_MAGIC,
# INVALID_TLV_INFO_MAGIC or ERROR), VERIFY_VERSION and VERIFY_SHA ("-" when not printed) and
# VERIFY_DETAIL (the last output line, for the log).
imgtool_verify() { # FILE KEY|-
    local file="$1" key="$2" out rc
    local -a args=(verify)
    if [[ "$key" != "-" ]]; then args+=(-k "$key"); fi
    if out="$("$IMGTOOL" "${args[@]}" "$file" 2>&1)"; then rc=0; else rc=$?; fi
    VERIFY_VERSION="-"; VERIFY_SHA="-"
    VERIFY_DETAIL="$(printf '%s\n' "$out" | tail -n 1)"
    if [[ $rc -eq 0 ]] && grep -q '^Image was correctly validated$' <<<"$out"; then
        VERIFY_RESULT=OK
        VERIFY_VERSION="$(sed -n 's/^Image version: //p' <<<"$out")"
        VERIFY_SHA="$(sed -n 's/^Image digest: //p' <<<"$out")"
        [[ -n "$VERIFY_VERSION" ]] || VERIFY_VERSION="-"
        [[ -n "$VERIFY_SHA" ]] || VERIFY_SHA="-"
    elif [[ $rc -eq 1 ]]; then
        case "$VERIFY_DETAIL" in
            "Invalid image magic; is this an MCUboot image?") VERIFY_RESULT=INVALID_MAGIC ;;
            "Invalid TLV info magic; is this an MCUboot image?") VERIFY_RESULT=INVALID_TLV_INFO_MAGIC ;;
            "Image has an invalid hash") VERIFY_RESULT=INVALID_HASH ;;
            "No signature found for the given key") VERIFY_RESULT=INVALID_SIGNATURE ;;
            "Key type does not match TLV record") VERIFY_RESULT=KEY_MISMATCH ;;
            *) VERIFY_RESULT=ERROR ;;
        esac
    else
        VERIFY_RESULT=ERROR
    fi
}

# --- keys ------------------------------------------------------------------------------------------
mkdir -p "$here/keys"
key_types=("ecdsa-p256:ecdsa-p256" "ed25519:ed25519" "rsa2048:rsa-2048" "rsa3072:rsa-3072"
           "other-ecdsa-p256:ecdsa-p256")
for entry in "${key_types[@]}"; do
    name="${entry%%:*}" type="${entry#*:}"
    priv="$here/keys/TEST-ONLY-$name.pem" pub="$here/keys/TEST-ONLY-$name.pub.pem"
    if [[ $new_keys -eq 1 || ! -s "$priv" ]]; then
        echo "== new key $name ($type)"
        rm -f "$priv" "$pub"
        "$IMGTOOL" keygen -k "$priv" -t "$type"
    fi
    "$IMGTOOL" getpub -k "$priv" --encoding pem -o "$work/pub.pem"
    cmp -s "$work/pub.pem" "$pub" 2>/dev/null || cp "$work/pub.pem" "$pub"
done
cat > "$here/keys/README.md" <<'EOF'
# TEST-ONLY keys: public, worthless, never for production

Every private key in this folder is **published in this repository** and therefore known to
everyone. They exist only to sign the sample images in `../images/` and `../broken/` so that dfu's
tests can check hashes and signatures. A device that trusts one of these keys accepts firmware from
anybody: never build a bootloader with them, never sign a release with them.

| file | type |
|---|---|
| `TEST-ONLY-ecdsa-p256.pem` / `.pub.pem` | ECDSA P-256 (signature TLV 0x22) |
| `TEST-ONLY-ed25519.pem` / `.pub.pem` | Ed25519 (0x24) |
| `TEST-ONLY-rsa2048.pem` / `.pub.pem` | RSA-2048 PSS (0x20) |
| `TEST-ONLY-rsa3072.pem` / `.pub.pem` | RSA-3072 PSS (0x23) |
| `TEST-ONLY-other-ecdsa-p256.pem` / `.pub.pem` | ECDSA P-256, the "wrong key" for `../broken/signed-with-other-key.bin` |

`*.pem` are private keys (PKCS#8, as written by `imgtool keygen`); `*.pub.pem` are the public
keys (`imgtool getpub --encoding pem`), the form `dfu verify --key` takes.
`../generate.sh` creates them only when they are missing, or all anew with `--new-keys`.
EOF

# --- bodies and signed images ------------------------------------------------------------------------
stage="$work/stage"
mkdir -p "$stage/body" "$stage/images" "$stage/broken"
ln -s "$here/keys" "$stage/keys" # so that key paths in the TSVs are relative to firmware-samples/

helper body 49152 "blinky-48k-v1" "$stage/body/blinky-48k.bin"
helper body 524288 "bench-512k-v1" "$work/bench-512k.bin"

# keep_or_replace NAME PUBKEY: stage/NAME has just been signed. If the committed firmware-samples/NAME
# differs only in signature values and still verifies with PUBKEY (or is byte-identical), stage the
# committed file instead, so that re-running does not churn randomised ECDSA/RSA signatures.
keep_or_replace() {
    local name="$1" pub="$2" old="$here/$1" new="$stage/$1"
    [[ -f "$old" ]] || return 0
    if cmp -s "$old" "$new"; then return 0; fi
    if helper equivalent "$old" "$new"; then
        imgtool_verify "$old" "$pub"
        if [[ "$VERIFY_RESULT" == OK ]]; then
            cp "$old" "$new"
            echo "   kept committed $name (same content, earlier randomised signature)"
        fi
    fi
}

# sign OUT_NAME BODY KEYNAME|- SLOT VERSION [extra imgtool args...]
sign() {
    local name="$1" bodyfile="$2" keyname="$3" slot="$4" version="$5"
    shift 5
    local -a args=(sign --header-size 0x200 --align 4 --slot-size "$slot" --pad-header --version "$version")
    if [[ "$keyname" != "-" ]]; then args+=(-k "$here/keys/TEST-ONLY-$keyname.pem"); fi
    "$IMGTOOL" "${args[@]}" "$@" "$bodyfile" "$stage/$name" >/dev/null
    if [[ "$keyname" != "-" ]]; then
        keep_or_replace "$name" "$here/keys/TEST-ONLY-$keyname.pub.pem"
    fi
    echo "   $name ($(stat -c %s "$stage/$name") bytes)"
}

echo "== signed images"
body48="$stage/body/blinky-48k.bin"
algs=(ecdsa-p256 ed25519 rsa2048 rsa3072)
for alg in "${algs[@]}"; do
    for version in 1.0.0 1.1.0; do
        sign "images/blinky-$alg-$version.signed.bin" "$body48" "$alg" 0x60000 "$version"
    done
done
sign "images/blinky-ecdsa-p256-1.2.3+45.signed.bin" "$body48" ecdsa-p256 0x60000 1.2.3+45
sign "images/blinky-ecdsa-p256-protected-tlv-1.1.0.signed.bin" "$body48" ecdsa-p256 0x60000 1.1.0 \
    --security-counter 7 --custom-tlv 0xa0 0x12345678
sign "images/blinky-unsigned-1.1.0.bin" "$body48" - 0x60000 1.1.0
sign "images/bench-512k-ecdsa-p256-1.1.0.signed.bin" "$work/bench-512k.bin" ecdsa-p256 0x100000 1.1.0

echo "== broken images (from images/blinky-ecdsa-p256-1.1.0.signed.bin)"
src="$stage/images/blinky-ecdsa-p256-1.1.0.signed.bin"
broken_kinds=(tampered-body tampered-version truncated-tlv truncated-header lying-img-size
              lying-tlv-total lying-hdr-size bad-magic bad-tlv-magic tampered-signature
              missing-hash wrong-keyhash)
for kind in "${broken_kinds[@]}"; do
    helper derive "$kind" "$src" "$stage/broken/$kind.bin"
done
# A valid image, but signed with the other ECDSA key: verifying with TEST-ONLY-ecdsa-p256 must fail.
sign "broken/signed-with-other-key.bin" "$body48" other-ecdsa-p256 0x60000 1.1.0

# --- what imgtool says: expected.tsv and imgtool-divergent.tsv ----------------------------------
# Two broken samples are accepted by imgtool 2.5.0 although MCUboot's bootloader
# (bootutil_img_validate) refuses them. Their rows go to imgtool-divergent.tsv with the verdict
# MCUboot (and so dfu) must give, so that expected.tsv stays "dfu agrees with imgtool" on every row.
declare -A mcuboot_reason=(
    [broken/missing-hash.bin]="no SHA256 TLV: with a key imgtool checks the ECDSA signature over the image bytes and says OK; bootutil requires the hash TLV"
    [broken/wrong-keyhash.bin]="KEYHASH TLV is not the hash of the key: imgtool never reads KEYHASH; bootutil finds no key with that hash and refuses (without a key there is nothing to compare, so OK)"
)

ecdsa_pub="keys/TEST-ONLY-ecdsa-p256.pub.pem"
# rows: "file<TAB>key<TAB>what imgtool must say (OK | not-OK | any)<TAB>MCUboot's verdict (OK |
# REJECT) for the rows of imgtool-divergent.tsv, else -". The third column is only checked here.
rows=()
row() { rows+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"${4:--}"); }
for alg in "${algs[@]}"; do
    for version in 1.0.0 1.1.0; do
        f="images/blinky-$alg-$version.signed.bin"
        row "$f" "keys/TEST-ONLY-$alg.pub.pem" OK
        row "$f" - OK
    done
done
for f in images/blinky-ecdsa-p256-1.2.3+45.signed.bin images/blinky-ecdsa-p256-protected-tlv-1.1.0.signed.bin \
         images/bench-512k-ecdsa-p256-1.1.0.signed.bin; do
    row "$f" "$ecdsa_pub" OK
    row "$f" - OK
done
row images/blinky-unsigned-1.1.0.bin - OK
row images/blinky-unsigned-1.1.0.bin "$ecdsa_pub" not-OK
# Good images with a key they were not signed with (same type, and other types): never OK.
row images/blinky-ecdsa-p256-1.1.0.signed.bin keys/TEST-ONLY-other-ecdsa-p256.pub.pem not-OK
row images/blinky-ecdsa-p256-1.1.0.signed.bin keys/TEST-ONLY-ed25519.pub.pem not-OK
row images/blinky-ed25519-1.1.0.signed.bin "$ecdsa_pub" not-OK
row images/blinky-rsa2048-1.1.0.signed.bin keys/TEST-ONLY-rsa3072.pub.pem not-OK
row images/blinky-rsa3072-1.1.0.signed.bin keys/TEST-ONLY-rsa2048.pub.pem not-OK
for kind in "${broken_kinds[@]}" signed-with-other-key; do
    [[ -n "${mcuboot_reason[broken/$kind.bin]:-}" ]] || row "broken/$kind.bin" "$ecdsa_pub" not-OK
done
row broken/missing-hash.bin "$ecdsa_pub" any REJECT
row broken/missing-hash.bin - any REJECT
row broken/wrong-keyhash.bin "$ecdsa_pub" any REJECT
row broken/wrong-keyhash.bin - any OK

echo "== imgtool verify on every sample"
expected="$work/expected.tsv" divergent="$work/imgtool-divergent.tsv"
: > "$expected"
: > "$divergent"
fail=0
# Sorted: images and broken files in name order.
mapfile -t rows < <(printf '%s\n' "${rows[@]}" | LC_ALL=C sort -u)
for r in "${rows[@]}"; do
    IFS=$'\t' read -r file key want mcuboot <<<"$r"
    if [[ "$key" == "-" ]]; then imgtool_verify "$stage/$file" -; else imgtool_verify "$stage/$file" "$stage/$key"; fi
    note=""
    [[ $VERIFY_RESULT == ERROR ]] && note=" ($VERIFY_DETAIL)"
    printf '   %-22s %-58s key %s%s\n' "$VERIFY_RESULT" "$file" "$key" "$note"
    if [[ "$mcuboot" != "-" ]]; then
        # file, key, imgtool_result, what MCUboot (and so dfu) must say, why
        printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$key" "$VERIFY_RESULT" "$mcuboot" "${mcuboot_reason[$file]}" >> "$divergent"
    else
        printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$key" "$VERIFY_RESULT" "$VERIFY_VERSION" "$VERIFY_SHA" >> "$expected"
    fi
    if [[ $want == OK && $VERIFY_RESULT != OK ]] || [[ $want == not-OK && $VERIFY_RESULT == OK ]]; then
        echo "generate.sh: imgtool says $VERIFY_RESULT for $file with key $key, wanted $want" >&2
        fail=1
    fi
done
[[ $fail -eq 0 ]] || { echo "generate.sh: refusing to install inconsistent samples" >&2; exit 1; }

# --- install ---------------------------------------------------------------------------------------
for dir in body images broken; do
    rm -rf "${here:?}/$dir"
    cp -r "$stage/$dir" "$here/$dir"
done
cp "$expected" "$here/expected.tsv"
cp "$divergent" "$here/imgtool-divergent.tsv"
echo "== done: $(wc -l < "$here/expected.tsv") rows in expected.tsv, $(wc -l < "$here/imgtool-divergent.tsv") in imgtool-divergent.tsv, $(du -sh "$here" | cut -f1) in firmware-samples/"
