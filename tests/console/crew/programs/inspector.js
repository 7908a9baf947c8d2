import { session } from "gg";

session.approve();
