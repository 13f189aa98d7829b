import altostratus as alto

alto.Network("app", labl="app")  # expect: "labl"
alto.NetworkArgs(cidr="10.0.0.0/24")  # expect: "cidr"
alto.get_network(lable="shared")  # expect: "lable"
