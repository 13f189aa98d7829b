import altostratus as alto

alto.Network("app", labl="app")  # expect: "labl"
alto.NetworkArgs(cidr="10.0.0.0/24")  # expect: "cidr"
alto.get_network(lable="shared")  # expect: "lable"
alto.LoadBalancerArgs(name="web")  # expect: "network_id"
alto.FirewallRuleArgs(protocol="tcp", start_port="22")  # expect: "firewall_id"
