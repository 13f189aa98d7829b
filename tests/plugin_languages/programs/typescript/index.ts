import * as pulumi from "@pulumi/pulumi";
import * as altostratus from "@altostratus/pulumi";

const config = new pulumi.Config();
const adminCidr = config.get("adminCidr") ?? "10.0.0.0/8";

const network = new altostratus.Network("app", { label: "app", cidrV4: "10.20.0.0/24" });
const firewall = new altostratus.Firewall("app", {
    networkId: network.id,
    createDefaultRules: false,
    ingressRules: [{ protocol: "tcp", startPort: "443", cidr: ["0.0.0.0/0"] }],
});
const ssh = new altostratus.FirewallRule("ssh", {
    firewallId: firewall.id,
    protocol: "tcp",
    startPort: "22",
    cidr: [adminCidr],
    direction: "ingress",
    action: "allow",
    label: "ssh from the admin range",
});
const credential = new altostratus.ObjectStoreCredential("ci", {});
const store = new altostratus.ObjectStore("assets", {
    maxSizeGb: 250,
    accessKeyId: credential.accessKeyId,
});

export const networkId = network.id;
export const networkCidr = network.cidr;
export const sshRuleId = ssh.id;
export const bucket = store.bucketName;
export const secretAccessKey = credential.secretAccessKey;
