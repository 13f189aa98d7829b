"""ListBuckets, answered by the front: only the signer's buckets."""

from __future__ import annotations

from datetime import timezone
from xml.sax.saxutils import escape

from altostratus.emulator.s3 import store


def list_buckets_xml(account_id: str, names: list[str], prefix: str = "") -> bytes:
    entries = []
    for name in sorted(names):
        created = store.creation_date(name)
        if created is None or not name.startswith(prefix):
            continue
        stamp = created.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        entries.append(
            f"<Bucket><Name>{escape(name)}</Name><CreationDate>{stamp}</CreationDate></Bucket>"
        )
    owner = escape(account_id)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<ListAllMyBucketsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
        f"<Owner><ID>{owner}</ID><DisplayName>{owner}</DisplayName></Owner>"
        f"<Buckets>{''.join(entries)}</Buckets></ListAllMyBucketsResult>"
    ).encode()
