"""A credential and an object store it owns; `upload.py` uses the stack's outputs with boto3."""

import pulumi

import altostratus as alto

config = pulumi.Config()
size_gb = config.get_int("sizeGb") or 500

credential = alto.ObjectStoreCredential("ci")
store = alto.ObjectStore("assets", max_size_gb=size_gb, access_key_id=credential.access_key_id)

pulumi.export("bucket", store.bucket_name)
pulumi.export("endpoint_url", store.endpoint_url)
pulumi.export("access_key_id", credential.access_key_id)
pulumi.export("secret_access_key", credential.secret_access_key)
