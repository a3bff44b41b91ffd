# fslab prep (Windows): what the disks hold; changes nothing
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0
Import-Module Storage

function Get-FslabDisk([int]$Number) {
    $d = Get-Disk -Number $Number -ErrorAction SilentlyContinue
    if (-not $d) { return }
    $parts = @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue | ForEach-Object {
        $v = Get-Volume -Partition $_ -ErrorAction SilentlyContinue
        [ordered]@{
            PartitionNumber = [int]$_.PartitionNumber; Type = [string]$_.Type
            Offset = [uint64]$_.Offset; Size = [uint64]$_.Size
            DriveLetter = [string]$_.DriveLetter
            AccessPaths = @($_.AccessPaths | ForEach-Object { [string]$_ })
            FileSystem = $(if ($v) { [string]$v.FileSystem } else { '' })
            FileSystemLabel = $(if ($v) { [string]$v.FileSystemLabel } else { '' })
            AllocationUnitSize = $(if ($v) { [uint64]$v.AllocationUnitSize } else { 0 })
        }
    })
    [ordered]@{
        Number = [int]$d.Number; FriendlyName = [string]$d.FriendlyName
        SerialNumber = [string]$d.SerialNumber; UniqueId = [string]$d.UniqueId
        BusType = [string]$d.BusType; Size = [uint64]$d.Size
        PartitionStyle = [int]$d.CimInstanceProperties['PartitionStyle'].Value
        IsSystem = [bool]$d.IsSystem; IsBoot = [bool]$d.IsBoot
        IsOffline = [bool]$d.IsOffline; IsReadOnly = [bool]$d.IsReadOnly
        LogicalSectorSize = [int]$d.LogicalSectorSize
        PhysicalSectorSize = [int]$d.PhysicalSectorSize
        Partitions = $parts
    }
}

$facts = [ordered]@{
    Windows = [string][System.Environment]::OSVersion.VersionString
    PowerShell = [string]$PSVersionTable.PSVersion
    Disks = @(@(1, 2) | ForEach-Object { Get-FslabDisk $_ })
}
'FSLAB-FACTS-BEGIN'
ConvertTo-Json -Depth 6 -Compress -InputObject $facts
'FSLAB-FACTS-END'
