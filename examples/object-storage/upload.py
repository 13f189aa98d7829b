"""Upload a file to the stack's object store, list what is there, and print a link to the file
that works for an hour without credentials (a presigned URL, boto3's default signing).

    python upload.py path/to/file

It reads the stack's outputs with `pulumi stack output --json --show-secrets`, or from the
environment variables BUCKET, ENDPOINT_URL, ACCESS_KEY_ID and SECRET_ACCESS_KEY when they are set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import boto3
from botocore.config import Config


def stack_outputs() -> dict[str, str]:
    names = ("bucket", "endpoint_url", "access_key_id", "secret_access_key")
    from_env = {name: os.environ.get(name.upper()) for name in names}
    if all(from_env.values()):
        return {name: value for name, value in from_env.items() if value}
    answer = subprocess.run(
        ["pulumi", "stack", "output", "--json", "--show-secrets"],
        check=True,
        capture_output=True,
        text=True,
    )
    outputs: dict[str, str] = json.loads(answer.stdout)
    return outputs


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python upload.py FILE", file=sys.stderr)
        return 1
    path = Path(argv[0])
    outputs = stack_outputs()
    s3 = boto3.client(
        "s3",
        endpoint_url=outputs["endpoint_url"],
        aws_access_key_id=outputs["access_key_id"],
        aws_secret_access_key=outputs["secret_access_key"],
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}),
    )
    key = f"uploads/{path.name}"
    s3.upload_file(str(path), outputs["bucket"], key)
    listing = s3.list_objects_v2(Bucket=outputs["bucket"], Prefix="uploads/")
    for item in listing.get("Contents", []):
        print(f"{item['Size']:>10}  {item['Key']}")
    link = s3.generate_presigned_url(
        "get_object", Params={"Bucket": outputs["bucket"], "Key": key}, ExpiresIn=3600
    )
    print(f"link for an hour: {link}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
