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
SHA256_TLV, KEYHASH_TLV, ECDSA_SIG_TLV, ED25519_TLV, DECOMP_SHA_TLV = 0x10, 0x01, 0x22, 0x24, 0x71


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


def compressible_body(size: int, seed: str) -> bytes:
    """A fake application that compresses like real code does (random bytes do not, and imgtool
    then silently writes an uncompressed image): the vector table of body(), then 16-bit words from
    a small vocabulary with Thumb-2 BL call pairs (F000 F800 patterns, what the ARM Thumb filter
    rewrites) at pseudo-random places. Deterministic for a given seed."""
    rnd = prng(seed.encode(), size)
    out = bytearray(body(size, seed)[:64]) + bytearray(size - 64)
    vocab = [rnd[64 + 2 * k:66 + 2 * k] for k in range(48)]
    pos = 64
    while pos + 4 <= size - 256:
        r = rnd[pos]
        if r < 40:
            off = int.from_bytes(rnd[pos:pos + 3], "little") & 0x3FFFFF
            struct.pack_into("<HH", out, pos, 0xF000 | ((off >> 11) & 0x7FF), 0xF800 | (off & 0x7FF))
            pos += 4
        else:
            out[pos:pos + 2] = vocab[r % 48]
            pos += 2
    banner = b"blinky (dfu test firmware, not a real application) seed=" + seed.encode() + b"\0"
    out[size - 256:size - 256 + len(banner)] = banner
    return bytes(out)


def rehash(b: bytearray, lay: dict, keyfile: str) -> None:
    """Rewrites the SHA256 TLV for the bytes as they now are, and the Ed25519 signature over it with
    imgtool's own signer (deterministic), so only what the body decompresses to is wrong."""
    from imgtool import keys
    off, ln = tlv(b, lay, SHA256_TLV)
    assert ln == 32
    digest = hashlib.sha256(bytes(b[:lay["unprot_off"]])).digest()
    b[off + 4:off + 4 + ln] = digest
    off, ln = tlv(b, lay, ED25519_TLV)
    signature = keys.load(keyfile).sign_digest(digest)
    assert len(signature) == ln
    b[off + 4:off + 4 + ln] = signature


def protected_tlv(b: bytes, lay: dict, wanted: int):
    off = lay["prot_off"] + 4
    while off < lay["unprot_off"]:
        t, ln = struct.unpack_from("<HH", b, off)
        if t == wanted:
            return off, ln
        off += 4 + ln
    raise SystemExit(f"protected TLV 0x{wanted:02x} not found")


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


def derive(src: bytes, kind: str, keyfile: str = "") -> bytes:
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
    elif kind == "compressed-wrong-decomp-sha":  # DECOMP_SHA bit flipped, file re-hashed and re-signed
        off, _ = protected_tlv(src, lay, DECOMP_SHA_TLV)
        b[off + 4] ^= 0x01
        rehash(b, lay, keyfile)
    elif kind == "compressed-bad-stream":  # a byte of the LZMA2 stream changed, file re-hashed and re-signed
        b[lay["hdr"] + lay["img"] // 2] ^= 0xFF
        rehash(b, lay, keyfile)
    else:
        raise SystemExit(f"unknown derivation {kind}")
    return bytes(b)


def main(argv):
    cmd = argv[1]
    if cmd == "body":  # body SIZE SEED OUT
        with open(argv[4], "wb") as f:
            f.write(body(int(argv[2], 0), argv[3]))
    elif cmd == "compressible-body":  # compressible-body SIZE SEED OUT
        with open(argv[4], "wb") as f:
            f.write(compressible_body(int(argv[2], 0), argv[3]))
    elif cmd == "equivalent":  # equivalent OLD NEW -> exit 0 if equivalent
        with open(argv[2], "rb") as f1, open(argv[3], "rb") as f2:
            sys.exit(0 if equivalent(f1.read(), f2.read()) else 1)
    elif cmd == "derive":  # derive KIND SRC OUT [SIGNING_KEY]
        with open(argv[3], "rb") as f:
            src = f.read()
        with open(argv[4], "wb") as f:
            f.write(derive(src, argv[2], argv[5] if len(argv) > 5 else ""))
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
           "other-ecdsa-p256:ecdsa-p256" "enc-ec256:ecdsa-p256" "enc-x25519:x25519" "enc-rsa2048:rsa-2048")
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
| `TEST-ONLY-enc-ec256.pem` / `.pub.pem` | P-256 encryption key (ECIES-P256, TLV 0x32): `imgtool sign -E` takes the public one, the virtual device (`sim:enc_key=`) the private one |
| `TEST-ONLY-enc-x25519.pem` / `.pub.pem` | X25519 encryption key (ECIES-X25519, TLV 0x33), likewise |
| `TEST-ONLY-enc-rsa2048.pem` / `.pub.pem` | RSA-2048 encryption key (RSA-OAEP, TLV 0x30), likewise |

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
helper compressible-body 49152 "blinky-compressible-48k-v1" "$stage/body/blinky-compressible-48k.bin"

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
# RAM-load (MCUboot copies the image into RAM before it runs it, docs/design.md "RAM loading"):
# --load-addr sets RAM_LOAD and the load address, here the start of an nRF52840's RAM.
sign "images/blinky-ramload-ecdsa-p256-1.1.0.signed.bin" "$body48" ecdsa-p256 0x60000 1.1.0 --load-addr 0x20000000

# Compressed (imgtool --compression; sdk-mcuboot decompresses them in overwrite-only builds), from a
# body that compresses, with Ed25519 so that every run gives the same bytes. The uncompressed image
# of the same body is what MCUboot installs from them: its SHA256 TLV is their DECOMP_SHA.
bodyc="$stage/body/blinky-compressible-48k.bin"
sign "images/blinky-compressible-ed25519-1.1.0.signed.bin" "$bodyc" ed25519 0x60000 1.1.0
for compression in lzma2 lzma2armthumb; do
    sign "images/blinky-$compression-ed25519-1.1.0.signed.bin" "$bodyc" ed25519 0x60000 1.1.0 --compression "$compression"
done

# Encrypted (imgtool -E with a TEST-ONLY encryption public key; the virtual device decrypts with
# the private one). imgtool signs with a key of the encryption key's type (P-256 with P-256, RSA
# with RSA); X25519 goes with Ed25519. Every run draws a new AES key (and ECIES ephemeral key), so
# a committed file is kept as it is unless --new-keys replaces the keys.
sign_encrypted() { # NAME SIGNKEY ENCKEY [extra imgtool args...]
    local name="$1" signkey="$2" enckey="$3"
    shift 3
    if [[ $new_keys -eq 0 && -f "$here/$name" ]]; then
        cp "$here/$name" "$stage/$name"
        echo "   $name (kept committed: encryption is randomised)"
        return 0
    fi
    sign "$name" "$body48" "$signkey" 0x60000 1.1.0 -E "$here/keys/TEST-ONLY-$enckey.pub.pem" "$@"
}
sign_encrypted "images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin" ecdsa-p256 enc-ec256
sign_encrypted "images/blinky-enc-x25519-ed25519-1.1.0.signed.bin" ed25519 enc-x25519
sign_encrypted "images/blinky-enc-rsa2048-rsa2048-1.1.0.signed.bin" rsa2048 enc-rsa2048

echo "== broken images (from images/blinky-ecdsa-p256-1.1.0.signed.bin)"
src="$stage/images/blinky-ecdsa-p256-1.1.0.signed.bin"
broken_kinds=(tampered-body tampered-version truncated-tlv truncated-header lying-img-size
              lying-tlv-total lying-hdr-size bad-magic bad-tlv-magic tampered-signature
              missing-hash wrong-keyhash)
for kind in "${broken_kinds[@]}"; do
    helper derive "$kind" "$src" "$stage/broken/$kind.bin"
done
# From the compressed image: the file's hash and signature stay valid, what it decompresses to does not.
for kind in compressed-wrong-decomp-sha compressed-bad-stream; do
    helper derive "$kind" "$stage/images/blinky-lzma2-ed25519-1.1.0.signed.bin" "$stage/broken/$kind.bin" \
        "$here/keys/TEST-ONLY-ed25519.pem"
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
    [broken/compressed-wrong-decomp-sha.bin]="DECOMP_SHA is not the hash of the decompressed image (file re-hashed and re-signed): imgtool checks the file only; sdk-mcuboot's dry-run decompression compares it and refuses"
    [broken/compressed-bad-stream.bin]="the LZMA2 stream is damaged (file re-hashed and re-signed): imgtool checks the file only; sdk-mcuboot's dry-run decompression fails and refuses"
    [images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin]="encrypted: imgtool hashes the ciphertext and says INVALID_HASH; MCUboot decrypts first. dfu verify checks the signature over the plaintext's hash (the SHA256 TLV) with the signing key and leaves the hash to the device (the sim checks it with sim:enc_key)"
    [images/blinky-enc-x25519-ed25519-1.1.0.signed.bin]="encrypted: imgtool hashes the ciphertext and says INVALID_HASH; MCUboot decrypts first. dfu verify checks the signature over the plaintext's hash (the SHA256 TLV) with the signing key and leaves the hash to the device (the sim checks it with sim:enc_key)"
    [images/blinky-enc-rsa2048-rsa2048-1.1.0.signed.bin]="encrypted: imgtool hashes the ciphertext and says INVALID_HASH; MCUboot decrypts first. dfu verify checks the signature over the plaintext's hash (the SHA256 TLV) with the signing key and leaves the hash to the device (the sim checks it with sim:enc_key)"
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
         images/bench-512k-ecdsa-p256-1.1.0.signed.bin images/blinky-ramload-ecdsa-p256-1.1.0.signed.bin; do
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
# Compressed: imgtool checks the file as sent, and agrees with dfu on the good ones.
for f in images/blinky-compressible-ed25519-1.1.0.signed.bin images/blinky-lzma2-ed25519-1.1.0.signed.bin \
         images/blinky-lzma2armthumb-ed25519-1.1.0.signed.bin; do
    row "$f" keys/TEST-ONLY-ed25519.pub.pem OK
    row "$f" - OK
done
row broken/compressed-wrong-decomp-sha.bin keys/TEST-ONLY-ed25519.pub.pem any REJECT
row broken/compressed-wrong-decomp-sha.bin - any REJECT
row broken/compressed-bad-stream.bin keys/TEST-ONLY-ed25519.pub.pem any REJECT
row broken/compressed-bad-stream.bin - any REJECT
# Encrypted: dfu verify cannot check the plaintext hash and says so (exit 0, hash not checked); the
# signature over that hash it checks: the signing key passes, another key fails.
row images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin - not-OK OK
row images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin "$ecdsa_pub" not-OK OK
row images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin keys/TEST-ONLY-other-ecdsa-p256.pub.pem not-OK REJECT
row images/blinky-enc-x25519-ed25519-1.1.0.signed.bin - not-OK OK
row images/blinky-enc-x25519-ed25519-1.1.0.signed.bin keys/TEST-ONLY-ed25519.pub.pem not-OK OK
row images/blinky-enc-x25519-ed25519-1.1.0.signed.bin "$ecdsa_pub" not-OK REJECT
row images/blinky-enc-rsa2048-rsa2048-1.1.0.signed.bin - not-OK OK
row images/blinky-enc-rsa2048-rsa2048-1.1.0.signed.bin keys/TEST-ONLY-rsa2048.pub.pem not-OK OK
row images/blinky-enc-rsa2048-rsa2048-1.1.0.signed.bin keys/TEST-ONLY-rsa3072.pub.pem not-OK REJECT

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
