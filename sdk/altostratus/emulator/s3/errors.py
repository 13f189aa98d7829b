"""S3-style XML error answers."""

from __future__ import annotations

import secrets
from xml.sax.saxutils import escape


class S3Error(Exception):
    """A refusal answered as S3's ``<Error>`` document; ``extra`` adds elements after Message."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        extra: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}

    def to_xml(self, resource: str, request_id: str) -> bytes:
        fields = {"Code": self.code, "Message": self.message, **self.extra}
        fields |= {"Resource": resource, "RequestId": request_id}
        inner = "".join(f"<{name}>{escape(value)}</{name}>" for name, value in fields.items())
        document = f'<?xml version="1.0" encoding="UTF-8"?>\n<Error>{inner}</Error>'
        return document.encode("utf-8", "replace")  # bytes a client sent that are not UTF-8


def new_request_id() -> str:
    return secrets.token_hex(8).upper()


def signature_mismatch(
    access_key_id: str, string_to_sign: str, provided: str, **computed: str
) -> S3Error:
    """S3's ``SignatureDoesNotMatch``, carrying what the emulator signed (``computed`` adds the
    version's own elements) so that a client author can compare it with their own."""
    return S3Error(
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. "
        "Check your key and signing method.",
        extra={
            "AWSAccessKeyId": access_key_id,
            "StringToSign": string_to_sign,
            "SignatureProvided": provided,
            **computed,
        },
    )


def access_denied(message: str = "Access Denied") -> S3Error:
    return S3Error(403, "AccessDenied", message)


def invalid_access_key_id() -> S3Error:
    return S3Error(
        403,
        "InvalidAccessKeyId",
        "The AWS Access Key Id you provided does not exist in our records.",
    )


def no_such_bucket(name: str) -> S3Error:
    return S3Error(
        404, "NoSuchBucket", "The specified bucket does not exist", extra={"BucketName": name}
    )


def quota_exceeded(bucket: str, limit: int) -> S3Error:
    return S3Error(
        403,
        "QuotaExceeded",
        f"The upload would take bucket {bucket} past its size limit of {limit} bytes.",
    )


def no_such_upload(upload_id: str) -> S3Error:
    return S3Error(
        404,
        "NoSuchUpload",
        "The specified upload does not exist. The upload ID may be invalid, or the upload may "
        "have been aborted or completed.",
        extra={"UploadId": upload_id},
    )
