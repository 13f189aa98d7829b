import altostratus as alto

alto.LoadBalancer(
    "web",
    network_id="network-id",
    backends=[
        alto.LoadBalancerBackendArgs(
            ip="10.0.0.5",
            protocol="TCP",
            source_port="80",  # expect: "source_port"
            target_port=8080,
        ),
        # mypy, in a union of a class and a TypedDict, names the TypedDict, not the key
        {  # expect-mypy: LoadBalancerBackendArgsDict  # expect-pyright: "backends"
            "ip": "10.0.0.6",
            "protocol": "TCP",
            "source_port": 80,
            "target_prt": 8080,
        },
    ],
)
alto.Netwrk("app")  # expect: "Netwrk"
