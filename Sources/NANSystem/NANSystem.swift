internal import CNetlink
