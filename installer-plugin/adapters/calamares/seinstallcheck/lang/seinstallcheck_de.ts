<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>SeinstallCheck</name>
    <message>
        <source>%1 could not be started (%2): install seinstall in the live system.</source>
        <translation>%1 konnte nicht gestartet werden (%2): Installieren Sie seinstall im Live-System.</translation>
    </message>
    <message>
        <source>%1 did not finish within %2 s (timeout in seinstallcheck.conf).</source>
        <translation>%1 wurde nicht innerhalb von %2 s fertig (timeout in seinstallcheck.conf).</translation>
    </message>
    <message>
        <source>%1 crashed.</source>
        <translation>%1 ist abgestürzt.</translation>
    </message>
    <message>
        <source>Could not write the plan for seinstall in a temporary directory: %1.</source>
        <translation>Der Plan für seinstall konnte nicht in ein temporäres Verzeichnis geschrieben werden: %1.</translation>
    </message>
    <message>
        <source>seinstall check exited %1: %2</source>
        <translation>seinstall check endete mit %1: %2</translation>
    </message>
</context>
<context>
    <name>SeinstallCheckViewStep</name>
    <message>
        <source>SELinux</source>
        <translation>SELinux</translation>
    </message>
    <message>
        <source>The file systems chosen can carry SELinux labels.</source>
        <translation>Die gewählten Dateisysteme können SELinux-Labels tragen.</translation>
    </message>
    <message>
        <source>Every planned mount point keeps a label per file: SELinux will be set up on the installed system.</source>
        <translation>Jeder geplante Einhängepunkt speichert ein Label pro Datei: SELinux wird auf dem installierten System eingerichtet.</translation>
    </message>
    <message>
        <source>SELinux: the planned file systems could not be checked</source>
        <translation>SELinux: Die geplanten Dateisysteme konnten nicht geprüft werden</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>Abhilfe: %1</translation>
    </message>
    <message>
        <source>Nothing has been written to any disk. Press Back and, on the partitioning page, choose file systems that keep per-file labels (ext4, xfs, btrfs) for the mount points named above.</source>
        <translation>Es wurde nichts auf einen Datenträger geschrieben. Klicken Sie auf Zurück und wählen Sie auf der Partitionierungsseite für die oben genannten Einhängepunkte Dateisysteme, die Labels pro Datei speichern (ext4, xfs, btrfs).</translation>
    </message>
    <message>
        <source>SELinux cannot work on the file systems chosen</source>
        <translation>SELinux kann auf den gewählten Dateisystemen nicht arbeiten</translation>
    </message>
    <message>
        <source>SELinux: no partitioning page before this one</source>
        <translation>SELinux: Vor dieser Seite gibt es keine Partitionierungsseite</translation>
    </message>
    <message>
        <source>The file systems are checked during the installation instead: put seinstallcheck right after partition in the show sequence of settings.conf to check them here.</source>
        <translation>Die Dateisysteme werden stattdessen während der Installation geprüft: Setzen Sie seinstallcheck in der show-Sequenz von settings.conf direkt hinter partition, um sie hier zu prüfen.</translation>
    </message>
    <message>
        <source>SELinux: no file system planned</source>
        <translation>SELinux: Kein Dateisystem geplant</translation>
    </message>
    <message>
        <source>The partitioning page planned no mounted file system: press Back and choose a root partition.</source>
        <translation>Die Partitionierungsseite hat kein eingehängtes Dateisystem geplant: Klicken Sie auf Zurück und wählen Sie eine Root-Partition.</translation>
    </message>
</context>
</TS>
